package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.changeflow.adapter.scheduler.Steps.Run;
import io.changeflow.adapter.scheduler.Steps.Runs;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several instances on one database: restarts, a crashed instance, concurrency, recurring jobs. */
class FailoverTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Runs runs = new Runs();

    @Test
    void aScheduledStepSurvivesASchedulerRestart() {
        var before = node("a", Map.of(StepKind.HANDLE, recorded("a", step -> StepOutcome.done()))).start();
        var step = new Step(StepKind.HANDLE, "op-1", 1, Map.of("phase", "merge"));
        before.queue().schedule(step, Duration.ofMillis(600));
        before.stop();
        before.close();

        // due while no instance runs: it waits in the table
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> runs.count() == 0);
        assertThat(schema.row(StepKind.HANDLE, "op-1")).isPresent();

        node("a-restarted", Map.of(StepKind.HANDLE, recorded("a-restarted", s -> StepOutcome.done()))).start();

        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        assertThat(runs.all()).extracting(Run::node, Run::step).containsExactly(tuple("a-restarted", step));
    }

    @Test
    void aStepOfAnInstanceThatDiedIsTakenOverAfterTheDeadExecutionTimeoutAndRunsExactlyOnceMore() {
        var stuck = new Gate();
        var a = node("a", Map.of(StepKind.HANDLE, recorded("a", step -> {
            stuck.pass();
            return StepOutcome.done();
        }))).start();
        var b = node("b", Map.of(StepKind.HANDLE, recorded("b", step -> StepOutcome.done())));
        a.queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);
        stuck.awaitEntered();
        b.start();

        // alive and stamping heartbeats: never taken over, however long the step takes (2 timeouts here)
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> runs.of(StepKind.HANDLE, "op-1").size() == 1);
        assertThat(schema.row(StepKind.HANDLE, "op-1").orElseThrow().getPickedBy()).isEqualTo("a");

        var killed = System.nanoTime();
        a.kill();

        await().atMost(WAIT).until(() -> runs.of(StepKind.HANDLE, "op-1").size() == 2);
        var takeover = Duration.ofNanos(runs.of(StepKind.HANDLE, "op-1").get(1).nanos() - killed);
        System.out.printf("taken over %d ms after the instance died (dead after %d ms without a heartbeat)%n",
                takeover.toMillis(), Node.fast("b").effectiveDeadExecutionTimeout().toMillis());
        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());

        stuck.open(); // the dead instance's thread wakes up and can no longer complete anything
        await().during(Duration.ofSeconds(1)).atMost(WAIT).until(() -> runs.count() == 2);
        assertThat(runs.of(StepKind.HANDLE, "op-1")).extracting(Run::node, run -> run.step().attempt())
                .containsExactly(tuple("a", 1), tuple("b", 2));
        assertThat(schema.workflowRows()).isEmpty();
    }

    /**
     * Found by the crash system test on a starved machine (load 21 on 2 cores): the survivor's own heartbeats lagged
     * past the dead-execution timeout while it ran a step, so it declared its own run dead and ran the step a second
     * time beside itself (a bot's approval was sent twice, the second answered 401). A run going on in this very
     * process is never run a second time by it; the run completes its row as usual.
     */
    @Test
    void aRunWhoseHeartbeatsLagInItsOwnProcessIsNeverRunASecondTimeBesideItself() throws Exception {
        var stuck = new Gate();
        var a = node("a", Map.of(StepKind.HANDLE, recorded("a", step -> {
            stuck.pass();
            return StepOutcome.done();
        }))).start();
        a.queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);
        stuck.awaitEntered();
        var lagging = new AtomicBoolean(true);
        var ager = new Thread(() -> {
            while (lagging.get()) {
                schema.ageHeartbeat(StepKind.HANDLE, "op-1", Duration.ofSeconds(30));
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        ager.start();
        try {
            // ten dead-execution timeouts with the heartbeat lagging: the detection sees the row "dead" again and again
            await().during(Duration.ofSeconds(10)).atMost(WAIT).until(() -> runs.of(StepKind.HANDLE, "op-1").size() == 1);
        } finally {
            lagging.set(false);
            ager.join();
        }
        stuck.open();
        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        assertThat(runs.of(StepKind.HANDLE, "op-1")).hasSize(1);
    }

    @Test
    void twoSchedulersNeverRunTheSameInstanceConcurrently() {
        var running = new ConcurrentHashMap<String, AtomicInteger>();
        var overlaps = new AtomicInteger();
        var runsPerStep = 5;
        Function<String, StepBody> handler = name -> recorded(name, step -> {
            var id = step.instanceId();
            if (running.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                Thread.sleep(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.get(id).decrementAndGet();
            }
            var n = step.intValue("n", 1);
            return n < runsPerStep ? StepOutcome.again(step.nextAttempt().with("n", n + 1), Duration.ZERO) : StepOutcome.done();
        });
        var a = node("a", Map.of(StepKind.HANDLE, handler.apply("a"))).start();
        var b = node("b", Map.of(StepKind.HANDLE, handler.apply("b"))).start();

        var steps = 40;
        for (var i = 0; i < steps; i++) {
            (i % 2 == 0 ? a : b).queue().schedule(Step.first(StepKind.HANDLE, "op-" + i), Duration.ZERO);
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> runs.count() == steps * runsPerStep && schema.workflowRows().isEmpty());
        assertThat(overlaps).hasValue(0);
        for (var i = 0; i < steps; i++) {
            assertThat(runs.of(StepKind.HANDLE, "op-" + i)).extracting(run -> run.step().intValue("n", 1))
                    .containsExactly(1, 2, 3, 4, 5);
        }
        System.out.printf("runs per instance: %s%n",
                runs.all().stream().collect(Collectors.groupingBy(Run::node, Collectors.counting())));
    }

    @Test
    void recurringJobsRunOnOneInstanceAtATimeAcrossTwoSchedulers() {
        var active = new AtomicInteger();
        var overlaps = new AtomicInteger();
        var runsByNode = new ConcurrentHashMap<String, AtomicInteger>();
        var total = new AtomicInteger();
        Function<String, RecurringJob> sweep = name -> new RecurringJob("sweep", Duration.ofMillis(30), () -> {
            if (active.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                runsByNode.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
                Thread.sleep(20);
                if (total.incrementAndGet() % 3 == 0) {
                    throw new IllegalStateException("every third sweep fails; the job keeps its schedule");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                active.decrementAndGet();
            }
        });
        node("a", List.of(sweep.apply("a"))).start();
        node("b", List.of(sweep.apply("b"))).start();

        await().atMost(WAIT).until(() -> total.get() >= 30);

        assertThat(overlaps).hasValue(0);
        assertThat(schema.all()).extracting(row -> row.getTaskInstance().getTaskName()).containsExactly("sweep");
        System.out.printf("recurring job runs per instance: %s%n", runsByNode);
    }

    private StepBody recorded(String node, StepBody handler) {
        return step -> {
            runs.add(node, step);
            return handler.run(step);
        };
    }

    private Node node(String name, Map<StepKind, StepBody> handlers) {
        return Node.of(schema, name, Steps.runner(handlers));
    }

    private Node node(String name, List<RecurringJob> jobs) {
        return Node.of(schema, Node.fast(name), 10_000, Steps.runner(Map.of()), jobs);
    }
}
