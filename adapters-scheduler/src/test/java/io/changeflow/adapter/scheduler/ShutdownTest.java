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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A graceful stop (issue 31): no new steps are taken from the moment it begins, a running step may finish within
 * the stop budget, and a step still running at the end of it is handed back at once, so another instance runs it
 * without waiting for the dead-execution timeout (a minute here, far longer than any wait of these tests).
 */
class ShutdownTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Runs runs = new Runs();

    @Test
    void aStoppingInstanceLetsItsRunningStepFinishAndTakesNoNewOne() throws Exception {
        var gate = new Gate();
        var a = node("a", Duration.ofSeconds(10), Map.of(StepKind.HANDLE, recorded("a", step -> {
            if (step.ref().equals("op-1")) {
                gate.pass();
            }
            return StepOutcome.done();
        }))).start();
        a.queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);
        gate.awaitEntered();

        var stopped = new CountDownLatch(1);
        a.stop(stopped::countDown);
        // scheduled on the stopping instance while its step still runs: left in the table for another instance
        a.queue().schedule(Step.first(StepKind.HANDLE, "op-2"), Duration.ZERO);
        gate.open();
        assertThat(stopped.await(20, TimeUnit.SECONDS)).isTrue();

        assertThat(schema.row(StepKind.HANDLE, "op-1")).isEmpty();
        assertThat(schema.row(StepKind.HANDLE, "op-2")).hasValueSatisfying(row -> assertThat(row.isPicked()).isFalse());
        assertThat(a.releasedAtStop()).isZero();

        node("b", Duration.ofSeconds(10), Map.of(StepKind.HANDLE, recorded("b", step -> StepOutcome.done()))).start();
        await().atMost(WAIT).until(() -> schema.workflowRows().isEmpty());
        assertThat(runs.all()).extracting(Run::node, r -> r.step().ref())
                .containsExactly(tuple("a", "op-1"), tuple("b", "op-2"));
    }

    @Test
    void aStepStillRunningWhenTheStopBudgetEndsIsReleasedAndTheOtherInstanceRunsItWithoutWaitingForTheDeadTimeout()
            throws Exception {
        var stuck = new Gate();
        var a = node("a", Duration.ofMillis(500), Map.of(StepKind.HANDLE, recorded("a", step -> {
            stuck.pass();
            return StepOutcome.done();
        }))).start();
        a.queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);
        stuck.awaitEntered();

        a.stop();

        // released: no longer held by a (its dead-execution timeout has not nearly passed)
        assertThat(schema.row(StepKind.HANDLE, "op-1")).hasValueSatisfying(row -> {
            assertThat(row.isPicked()).isFalse();
            assertThat(row.getPickedBy()).isNull();
        });
        assertThat(a.releasedAtStop()).isEqualTo(1);

        node("b", Duration.ofSeconds(10), Map.of(StepKind.HANDLE, recorded("b", step -> StepOutcome.done()))).start();
        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());

        // the run cut short on a wakes up late: it can no longer complete (or bring back) the row
        stuck.open();
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> schema.workflowRows().isEmpty());
        assertThat(runs.of(StepKind.HANDLE, "op-1")).extracting(Run::node).containsExactly("a", "b");
    }

    @Test
    void aStopWithNothingRunningReleasesNothingAndEndsAtOnce() throws Exception {
        var a = node("a", Duration.ofSeconds(10), Map.of(StepKind.HANDLE, recorded("a", step -> StepOutcome.done())))
                .start();
        a.queue().schedule(Step.first(StepKind.HANDLE, "later"), Duration.ofHours(1));
        var stopped = new CountDownLatch(1);

        a.stop(stopped::countDown);

        assertThat(stopped.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(a.releasedAtStop()).isZero();
        assertThat(schema.row(StepKind.HANDLE, "later")).hasValueSatisfying(row -> assertThat(row.isPicked()).isFalse());
    }

    /**
     * Polling 100 ms, heartbeat 100 ms, a dead-execution timeout of one minute (so a takeover within these tests is
     * the release, never the detection), the stop budget {@code stopBudget}.
     */
    private Node node(String name, Duration stopBudget, Map<StepKind, StepBody> handlers) {
        var settings = new SchedulerSettings(Duration.ofMillis(100), 4, Duration.ofMillis(100), Duration.ofMinutes(1),
                stopBudget, Duration.ofMillis(300), Duration.ofSeconds(1), name);
        return Node.of(schema, settings, 10_000, Steps.runner(handlers), List.of());
    }

    private StepBody recorded(String node, StepBody handler) {
        return step -> {
            runs.add(node, step);
            return handler.run(step);
        };
    }
}
