package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import io.changeflow.adapter.scheduler.Steps.Runs;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The {@code WorkQueue} contract and the outcome handling of one instance, on the real database. */
class DbSchedulerWorkQueueTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Runs runs = new Runs();

    @Test
    void keepsAScheduledStepAsAPendingRowWithItsTimeAndData() {
        var queue = node(Map.of()).queue();
        var step = new Step(StepKind.HANDLE, "op-1", 2, Map.of("phase", "approve", "polls", "3"));

        assertThat(queue.schedule(step, Duration.ofHours(1))).isTrue();

        var row = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(row.isPicked()).isFalse();
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now().plus(Duration.ofHours(1)), within(5, ChronoUnit.SECONDS));
        assertThat(Schema.step(row)).isEqualTo(step);
        assertThat(queue.isScheduled(StepKind.HANDLE, "op-1")).isTrue();
        assertThat(queue.isScheduled(StepKind.CREATE, "op-1")).isFalse();
        assertThat(queue.backlog()).isEqualTo(1);
    }

    @Test
    void tellsThePendingStepWithItsDueTimeForTheRequestPage() {
        var queue = node(Map.of()).queue();
        var step = new Step(StepKind.CREATE, "op-9", 3, Map.of("transientSince", "2026-03-02T09:00:00Z"));
        queue.schedule(step, Duration.ofMinutes(10));

        var scheduled = queue.scheduled(StepKind.CREATE, "op-9").orElseThrow();

        assertThat(scheduled.step()).isEqualTo(step);
        assertThat(scheduled.due()).isCloseTo(Instant.now().plus(Duration.ofMinutes(10)), within(5, ChronoUnit.SECONDS));
        assertThat(scheduled.due()).isEqualTo(schema.row(StepKind.CREATE, "op-9").orElseThrow().getExecutionTime());
        assertThat(queue.scheduled(StepKind.HANDLE, "op-9")).isEmpty();
        assertThat(queue.scheduled(StepKind.CREATE, "op-unknown")).isEmpty();
    }

    @Test
    void aWakeBringsOnlyThatPendingStepForwardWithItsDataAndLeavesTheOthersAndAbsentOnesAlone() {
        var queue = node(Map.of()).queue();
        var waiting = new Step(StepKind.CREATE, "op-w", 4, Map.of("phase", "pipeline", "polls", "7"));
        var other = Step.first(StepKind.CREATE, "op-x");
        queue.schedule(waiting, Duration.ofMinutes(5));
        queue.schedule(other, Duration.ofMinutes(5));
        var otherDue = schema.row(StepKind.CREATE, "op-x").orElseThrow().getExecutionTime();

        assertThat(queue.wake(StepKind.CREATE, "op-w")).isTrue();

        var row = schema.row(StepKind.CREATE, "op-w").orElseThrow();
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
        assertThat(Schema.step(row)).isEqualTo(waiting);
        assertThat(schema.row(StepKind.CREATE, "op-x").orElseThrow().getExecutionTime()).isEqualTo(otherDue);
        assertThat(queue.wake(StepKind.CREATE, "op-w")).as("due already").isFalse();
        assertThat(queue.wake(StepKind.HANDLE, "op-w")).as("not pending").isFalse();
        assertThat(queue.backlog()).isEqualTo(2);
    }

    @Test
    void aWakeLeavesARunningStepAlone() {
        var gate = new Gate();
        var queue = node(Map.of(StepKind.HANDLE, recorded(step -> {
            gate.pass();
            return StepOutcome.again(step, Duration.ofHours(1));
        }))).start().queue();
        queue.schedule(Step.first(StepKind.HANDLE, "op-r"), Duration.ZERO);
        gate.awaitEntered();

        assertThat(queue.wake(StepKind.HANDLE, "op-r")).isFalse();

        gate.open();
        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-r").map(r -> !r.isPicked()).orElse(false));
        assertThat(schema.row(StepKind.HANDLE, "op-r").orElseThrow().getExecutionTime())
                .isAfter(Instant.now().plus(Duration.ofMinutes(50)));
    }

    @Test
    void replacesThePendingStepOfTheSameInstance() {
        var queue = node(Map.of()).queue();
        queue.schedule(new Step(StepKind.HANDLE, "op-1", 1, Map.of("v", "1")), Duration.ofHours(1));

        var replacement = new Step(StepKind.HANDLE, "op-1", 3, Map.of("v", "2"));
        assertThat(queue.schedule(replacement, Duration.ofHours(2))).isTrue();

        assertThat(schema.workflowRows()).hasSize(1);
        var row = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(Schema.step(row)).isEqualTo(replacement);
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now().plus(Duration.ofHours(2)), within(5, ChronoUnit.SECONDS));
        assertThat(queue.backlog()).isEqualTo(1);
    }

    @Test
    void refusesNewWorkWhenTheBacklogIsFullButStillReplacesPendingSteps() {
        var queue = node(2, Map.of()).queue();
        assertThat(queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ofHours(1))).isTrue();
        assertThat(queue.schedule(Step.first(StepKind.CLOSE, "op-1"), Duration.ofHours(1))).isTrue();

        assertThat(queue.schedule(Step.first(StepKind.CREATE, "op-2"), Duration.ofHours(1))).isFalse();
        assertThat(queue.isScheduled(StepKind.CREATE, "op-2")).isFalse();

        var replacement = Step.first(StepKind.CREATE, "op-1").with("v", "2");
        assertThat(queue.schedule(replacement, Duration.ofMinutes(5))).isTrue();
        assertThat(Schema.step(schema.row(StepKind.CREATE, "op-1").orElseThrow())).isEqualTo(replacement);
        assertThat(queue.backlog()).isEqualTo(2);
    }

    @Test
    void summarisesTheBacklogInOneReadWithWhatIsDueAndTheCapacity() {
        var queue = node(5, Map.of()).queue();
        assertThat(queue.backlogSummary()).isEqualTo(new WorkQueue.Backlog(0, 0, 0, 0, 5, java.util.Optional.empty()));
        var before = Instant.now();
        assertThat(queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO)).isTrue();
        assertThat(queue.schedule(Step.first(StepKind.HANDLE, "op-2"), Duration.ofHours(1))).isTrue();

        var summary = queue.backlogSummary();

        assertThat(summary.waiting()).isEqualTo(2);
        assertThat(summary.dueNow()).isEqualTo(1);
        assertThat(summary.running()).isZero();
        assertThat(summary.failing()).isZero();
        assertThat(summary.capacity()).isEqualTo(5);
        assertThat(summary.oldestDue()).hasValueSatisfying(due ->
                assertThat(due).isCloseTo(before, within(5, ChronoUnit.SECONDS)));
    }

    /**
     * Bounded concurrency: however many steps are due, one instance runs at most its configured threads
     * at once (4 in {@link Node#fast}); each step holds its thread for 200 ms, so the bound is reached.
     */
    @Test
    void neverRunsMoreStepsAtOnceThanItsThreads() throws Exception {
        var running = new AtomicInteger();
        var most = new AtomicInteger();
        var never = new CountDownLatch(1);
        var node = node(Map.of(StepKind.HANDLE, recorded(step -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                never.await(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return StepOutcome.done();
        })));
        var queue = node.queue();
        for (int i = 0; i < 20; i++) {
            queue.schedule(Step.first(StepKind.HANDLE, "op-" + i), Duration.ZERO);
        }
        node.start();

        await().atMost(WAIT).until(() -> schema.workflowRows().isEmpty());
        assertThat(runs.all()).hasSize(20);
        assertThat(most.get()).as("steps running at once").isEqualTo(Node.fast("a").threads());
    }

    @Test
    void runsADueStepOnceAndDeletesItsRowWhenDone() {
        var queue = node(Map.of(StepKind.HANDLE, recorded(step -> StepOutcome.done()))).start().queue();

        queue.schedule(Step.first(StepKind.HANDLE, "op-1").with("mr", "7"), Duration.ZERO);

        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        assertThat(runs.all()).extracting(Steps.Run::step).containsExactly(Step.first(StepKind.HANDLE, "op-1").with("mr", "7"));
        assertThat(queue.isScheduled(StepKind.HANDLE, "op-1")).isFalse();
    }

    @Test
    void answersTrueAndChangesNothingWhileTheInstanceIsRunning() {
        var gate = new Gate();
        var queue = node(Map.of(StepKind.HANDLE, recorded(step -> {
            gate.pass();
            return StepOutcome.done();
        }))).start().queue();
        queue.schedule(Step.first(StepKind.HANDLE, "op-1").with("v", "1"), Duration.ZERO);
        gate.awaitEntered();

        assertThat(queue.isScheduled(StepKind.HANDLE, "op-1")).isTrue();
        assertThat(queue.schedule(Step.first(StepKind.HANDLE, "op-1").with("v", "2"), Duration.ofHours(1))).isTrue();

        var row = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(row.isPicked()).isTrue();
        assertThat(Schema.step(row).value("v")).contains("1");
        assertThat(queue.backlog()).isZero();

        gate.open();
        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        assertThat(runs.count()).isEqualTo(1);
    }

    @Test
    void rescheduleKeepsOneRowWithTheNewDataAndTime() {
        var queue = node(Map.of(StepKind.HANDLE, recorded(step ->
                StepOutcome.again(step.nextAttempt().with("polls", step.intValue("polls", 0) + 1), Duration.ofHours(1)))))
                .start().queue();

        queue.schedule(Step.first(StepKind.HANDLE, "op-1").with("phase", "pipeline"), Duration.ZERO);

        await().atMost(WAIT).until(() -> runs.count() == 1 && schema.row(StepKind.HANDLE, "op-1")
                .map(row -> !row.isPicked() && Schema.step(row).attempt() == 2).orElse(false));
        assertThat(schema.workflowRows()).hasSize(1);
        var row = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(Schema.step(row)).isEqualTo(new Step(StepKind.HANDLE, "op-1", 2, Map.of("phase", "pipeline", "polls", "1")));
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now().plus(Duration.ofHours(1)), within(5, ChronoUnit.SECONDS));
        assertThat(row.getConsecutiveFailures()).isZero();
    }

    @Test
    void nextSchedulesTheFollowerAndDeletesTheCurrentStep() {
        var queue = creatingAFollowerDueIn(Duration.ofHours(1));

        queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);

        assertTheFollowerIsTheOnlyRowDueIn(Duration.ofHours(1));
        assertThat(runs.count()).isEqualTo(1);
    }

    @Test
    void nextReplacesAPendingFollowerAndDeletesTheCurrentStep() {
        var queue = creatingAFollowerDueIn(Duration.ofHours(2));
        queue.schedule(new Step(StepKind.HANDLE, "op-1", 4, Map.of("mr", "old")), Duration.ofHours(1));

        queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);

        assertTheFollowerIsTheOnlyRowDueIn(Duration.ofHours(2));
    }

    /** The queue of a started instance whose CREATE steps answer Next: a HANDLE follower ("mr" 42) due in {@code dueIn}. */
    private WorkQueue creatingAFollowerDueIn(Duration dueIn) {
        return node(Map.of(StepKind.CREATE, recorded(step ->
                new StepOutcome.Next(new Step(StepKind.HANDLE, step.ref(), 1, Map.of("mr", "42")), dueIn))))
                .start().queue();
    }

    /** Once the CREATE step of op-1 is gone, its follower of {@link #creatingAFollowerDueIn} is the only row left. */
    private void assertTheFollowerIsTheOnlyRowDueIn(Duration dueIn) {
        await().atMost(WAIT).until(() -> schema.row(StepKind.CREATE, "op-1").isEmpty());
        assertThat(schema.workflowRows()).hasSize(1);
        var follower = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(Schema.step(follower)).isEqualTo(new Step(StepKind.HANDLE, "op-1", 1, Map.of("mr", "42")));
        assertThat(follower.getExecutionTime()).isCloseTo(Instant.now().plus(dueIn), within(5, ChronoUnit.SECONDS));
    }

    @Test
    void nextLeavesARunningFollowerToFinish() {
        var handling = new Gate();
        var queue = node(Map.of(
                StepKind.HANDLE, recorded(step -> {
                    handling.pass();
                    return StepOutcome.done();
                }),
                StepKind.CREATE, recorded(step -> StepOutcome.next(Step.first(StepKind.HANDLE, step.ref()).with("v", "2")))))
                .start().queue();
        queue.schedule(Step.first(StepKind.HANDLE, "op-1").with("v", "1"), Duration.ZERO);
        handling.awaitEntered();

        queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);

        await().atMost(WAIT).until(() -> schema.row(StepKind.CREATE, "op-1").isEmpty());
        var running = schema.row(StepKind.HANDLE, "op-1").orElseThrow();
        assertThat(running.isPicked()).isTrue();
        assertThat(Schema.step(running).value("v")).contains("1");
        handling.open();
        await().atMost(WAIT).until(() -> schema.workflowRows().isEmpty());
        assertThat(runs.of(StepKind.HANDLE, "op-1")).hasSize(1);
    }

    @Test
    void aFollowerThatHandsBackToTheKindItCameFromIsNeverLost() {
        var hops = 30;
        StepBody handBack = step -> {
            var hop = step.intValue("hop", 0);
            var other = step.kind() == StepKind.CREATE ? StepKind.HANDLE : StepKind.CREATE;
            return hop < hops ? StepOutcome.next(Step.first(other, step.ref()).with("hop", hop + 1)) : StepOutcome.done();
        };
        var queue = node(Map.of(StepKind.CREATE, recorded(handBack), StepKind.HANDLE, recorded(handBack))).start().queue();

        queue.schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);

        await().atMost(WAIT).until(() -> runs.count() == hops + 1 && schema.workflowRows().isEmpty());
        assertThat(runs.all()).extracting(run -> run.step().intValue("hop", 0)).containsExactlyElementsOf(
                IntStream.rangeClosed(0, hops).boxed().toList());
    }

    @Test
    void continuationsAreNeverRefusedByTheBacklogBound() {
        var creating = new Gate();
        var handling = new Gate();
        var queue = node(3, Map.of(
                StepKind.CREATE, recorded(step -> {
                    creating.pass();
                    return new StepOutcome.Next(Step.first(StepKind.HANDLE, step.ref()), Duration.ofHours(1));
                }),
                StepKind.HANDLE, recorded(step -> {
                    handling.pass();
                    return StepOutcome.again(step.nextAttempt(), Duration.ofHours(1));
                }))).start().queue();
        queue.schedule(Step.first(StepKind.CREATE, "op-x"), Duration.ZERO);
        queue.schedule(Step.first(StepKind.HANDLE, "op-y"), Duration.ZERO);
        creating.awaitEntered();
        handling.awaitEntered();
        for (var ref : List.of("op-1", "op-2", "op-3")) {
            assertThat(queue.schedule(Step.first(StepKind.CLOSE, ref), Duration.ofHours(1))).isTrue();
        }
        assertThat(queue.schedule(Step.first(StepKind.CLOSE, "op-4"), Duration.ofHours(1))).isFalse();

        creating.open();
        handling.open();

        await().atMost(WAIT).until(() -> queue.backlog() == 5);
        assertThat(schema.row(StepKind.CREATE, "op-x")).isEmpty();
        assertThat(schema.row(StepKind.HANDLE, "op-x")).isPresent();
        assertThat(schema.row(StepKind.HANDLE, "op-y").map(Schema::step).map(Step::attempt)).contains(2);
    }

    @Test
    void retriesAStepLaterWhenItsFailureStateCouldNotBeWritten() {
        var ref = UUID.randomUUID().toString();
        var databaseDown = new StateChanges(failingOperations(), null);
        var node = node(slowRetries(), 10_000, Steps.runner(databaseDown, Map.of(StepKind.HANDLE, recorded(step -> {
            if (step.attempt() == 1) {
                throw new IllegalStateException("the merge request API answered nonsense");
            }
            return StepOutcome.done();
        }))));
        node.start().queue().schedule(Step.first(StepKind.HANDLE, ref), Duration.ZERO);

        var failed = await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, ref).filter(r -> r.getConsecutiveFailures() == 1),
                Optional::isPresent).orElseThrow();
        assertRetryAfter(failed, Duration.ofMillis(1500), 2);

        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, ref).isEmpty());
        assertThat(runs.of(StepKind.HANDLE, ref)).extracting(run -> run.step().attempt()).containsExactly(1, 2);
    }

    @Test
    void retriesAStepOfAnUnregisteredKindLater() {
        var node = node(slowRetries(), 10_000, Steps.runner(Map.of(StepKind.HANDLE, recorded(step -> StepOutcome.done()))));
        node.start().queue().schedule(Step.first(StepKind.BATCH, "batch-1"), Duration.ZERO);

        var failed = await().atMost(WAIT).until(() -> schema.row(StepKind.BATCH, "batch-1").filter(r -> r.getConsecutiveFailures() == 1),
                Optional::isPresent).orElseThrow();
        assertRetryAfter(failed, Duration.ofMillis(1500), 2);
        assertThat(runs.count()).isZero();
    }

    @Test
    void retriesAStepThatThrowsAJvmErrorLater() {
        var node = node(slowRetries(), 10_000, Steps.runner(Map.of(StepKind.HANDLE, recorded(step -> {
            if (step.attempt() == 1) {
                throw new Error("simulated JVM-level error");
            }
            return StepOutcome.done();
        }))));
        node.start().queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);

        var failed = await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").filter(r -> r.getConsecutiveFailures() == 1),
                Optional::isPresent).orElseThrow();
        assertRetryAfter(failed, Duration.ofMillis(1500), 2);

        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        assertThat(runs.of(StepKind.HANDLE, "op-1")).extracting(run -> run.step().attempt()).containsExactly(1, 2);
    }

    @Test
    void backsOffExponentiallyUpToTheMaximumWhileAStepKeepsFailing() {
        var queue = node(Map.of(StepKind.HANDLE, recorded(step -> {
            throw new Error("still broken");
        }))).start().queue();
        queue.schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);

        var delays = new TreeMap<Integer, Duration>();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
            schema.row(StepKind.HANDLE, "op-1")
                    .filter(row -> !row.isPicked() && row.getConsecutiveFailures() > 0)
                    .ifPresent(row -> delays.put(row.getConsecutiveFailures(),
                            Duration.between(row.getLastFailure(), row.getExecutionTime())));
            return delays.size() >= 4;
        });

        // Node.fast: 300 ms doubling, at most 1 s
        assertThat(delays.headMap(5)).containsExactly(
                Map.entry(1, Duration.ofMillis(300)), Map.entry(2, Duration.ofMillis(600)),
                Map.entry(3, Duration.ofSeconds(1)), Map.entry(4, Duration.ofSeconds(1)));
    }

    private static void assertRetryAfter(ScheduledExecution<Object> row, Duration backoff, int nextAttempt) {
        assertThat(row.isPicked()).isFalse();
        assertThat(Duration.between(row.getLastFailure(), row.getExecutionTime())).isEqualTo(backoff);
        assertThat(Schema.step(row).attempt()).isEqualTo(nextAttempt);
    }

    private StepBody recorded(StepBody handler) {
        return step -> {
            runs.add("a", step);
            return handler.run(step);
        };
    }

    private Node node(Map<StepKind, StepBody> handlers) {
        return node(10_000, handlers);
    }

    private Node node(int capacity, Map<StepKind, StepBody> handlers) {
        return node(Node.fast("a"), capacity, Steps.runner(handlers));
    }

    private Node node(SchedulerSettings settings, int capacity, RunDueStep runner) {
        return Node.of(schema, settings, capacity, runner, List.of());
    }

    /** Retries 1.5 s apart: long enough to look at the row between two runs. */
    private static SchedulerSettings slowRetries() {
        var fast = Node.fast("a");
        return new SchedulerSettings(fast.pollingInterval(), fast.threads(), fast.heartbeatInterval(),
                fast.deadExecutionTimeout(), fast.shutdownMaxWait(), Duration.ofMillis(1500), Duration.ofSeconds(3), "a");
    }

    /** Operations whose every call fails, as when the database is down. */
    private static Operations failingOperations() {
        return (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(), new Class<?>[] {Operations.class},
                (proxy, method, args) -> {
                    throw new IllegalStateException("database down");
                });
    }
}
