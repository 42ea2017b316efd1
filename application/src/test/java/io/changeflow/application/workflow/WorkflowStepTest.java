package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The safety net around every step: every exit leaves a terminal or explicitly waiting state. */
class WorkflowStepTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @AfterEach
    void theTestThreadIsNotLeftInterrupted() {
        Thread.interrupted();
    }

    /** A create step of a fresh request whose body fails with {@code failure} (after {@code before}). */
    private WorkflowStep createStepFailingWith(Runnable before, RuntimeException failure) {
        return new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            before.run();
            throw failure;
        }, app.changes, app.policy.transientRetry());
    }

    /** Runs {@code step} for a fresh request: the failure escapes unchanged, nothing is written, the flag is set. */
    private void assertInterruptedWithoutWriting(WorkflowStep step, RuntimeException failure) {
        var id = app.submitAccepted(FakeTargets.SINGLE, "iris");
        var writes = app.operations.writes();
        var failed = app.metrics.count("failed", StepStatus.CREATE_FAILED.name());

        assertThatThrownBy(() -> step.run(Step.first(StepKind.CREATE, id.value()))).isSameAs(failure);

        assertThat(Thread.interrupted()).as("interrupt flag restored").isTrue();
        assertThat(app.operations.writes()).isEqualTo(writes);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.metrics.count("failed", StepStatus.CREATE_FAILED.name())).isEqualTo(failed);
    }

    @Test
    void anUnexpectedExceptionInTheCreateStepWritesItsDeclaredFailureState() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "alice");
        app.gitlab.failNext("commit", new IllegalStateException("NullPointerException in the client library"));

        app.queue.runUntilIdle();

        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.CREATE_FAILED);
        assertThat(op.step()).isEqualTo(StepStatus.CREATE_FAILED);
        assertThat(op.hint()).isEqualTo(Hint.KEEP_WAITING);
        assertThat(op.detail()).doesNotContain("NullPointerException");
        assertThat(app.metrics.count("failed", StepStatus.CREATE_FAILED.name())).isEqualTo(1);
    }

    @Test
    void anUnexpectedExceptionInTheHandleStepWritesHandleError() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        app.queue.runUntilIdle();
        app.decide(id, Decision.APPROVED);
        app.gitlab.failNext("merge", new IllegalArgumentException("unexpected"));

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_MERGE_FAILED);
    }

    @Test
    void aTransientFailureIsRetriedWithBackoffInsteadOfFailing() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.gitlab.failNext("createBranch", ExternalCallException.status("gitlab", 503, "Service Unavailable"));
        app.gitlab.failNext("createBranch", new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "slow", null));

        app.queue.runNext();
        var retry = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
        assertThat(retry.step().attempt()).isEqualTo(2);
        assertThat(Duration.between(app.clock.instant(), retry.due())).isEqualTo(app.policy.transientRetry().backoff().delayBefore(1));
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void usedUpTransientRetriesWriteTheDeclaredFailure() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dave");
        for (var i = 0; i <= app.policy.transientRetry().maxRetries(); i++) {
            app.gitlab.failNext("defaultBranch", ExternalCallException.status("gitlab", 500, "Internal Server Error"));
        }

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
    }

    /** Runs {@code step} from its first run until it is done; answers how many runs it took. */
    private static int runUntilDone(WorkflowStep step, Step first) {
        var current = first;
        for (var runs = 1; runs < 1_000; runs++) {
            var outcome = step.run(current);
            if (!(outcome instanceof StepOutcome.Reschedule again)) {
                return runs;
            }
            current = again.step();
        }
        throw new AssertionError("the step never finished");
    }

    private ExternalCallException gitlabDown() {
        return ExternalCallException.status("gitlab", 503, "Service Unavailable");
    }

    @Test
    void theTransientRetryCountStartsAgainAfterEveryRunThatCompleted() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "kurt");
        var budget = app.policy.transientRetry().maxRetries();
        var calls = new int[1];
        // A waiting step (e.g. a pipeline look per run) whose calls fail `budget` times in a row, three times over.
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            calls[0]++;
            if (calls[0] % (budget + 1) != 0) {
                throw gitlabDown();
            }
            return calls[0] < 3 * (budget + 1) ? StepOutcome.again(s.nextAttempt(), Duration.ofSeconds(1)) : StepOutcome.done();
        }, app.changes, app.policy.transientRetry());

        var runs = runUntilDone(step, Step.first(StepKind.CREATE, id.value()));

        assertThat(runs).isEqualTo(3 * (budget + 1));
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void theTransientRetryCountStartsAgainWhenTheStepAdvancedTheRequestBeforeFailing() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "lina");
        var budget = app.policy.transientRetry().maxRetries();
        var calls = new int[1];
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepHandler() {
            @Override
            public StepOutcome run(Step s) {
                calls[0]++;
                if (calls[0] == budget + 1) {
                    // this run gets further: the merge request is opened (a state write), then a later call fails
                    app.changes.apply(app.op(id), WorkflowEvent.MR_OPENED, "Merge request !1 is open.");
                }
                // counted afresh from that failure on: it and `budget - 1` more are retried
                if (calls[0] <= 2 * budget) {
                    throw gitlabDown();
                }
                return StepOutcome.done();
            }

            @Override
            public Optional<String> progress(Step s) {
                return Progress.ofRequest(app.operations, s);
            }
        }, app.changes, app.policy.transientRetry());

        var runs = runUntilDone(step, Step.first(StepKind.CREATE, id.value()));

        assertThat(runs).as("2 x budget failures in all, more than one budget allows").isEqualTo(2 * budget + 1);
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_MR_OPENED);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aStepThatWritesTheSameStateAgainBeforeEveryFailureStillUsesUpItsRetries() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "mats");
        var calls = new int[1];
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepHandler() {
            @Override
            public StepOutcome run(Step s) {
                calls[0]++;
                app.changes.apply(app.op(id), WorkflowEvent.CREATE_STARTED, "Creating the merge request.");
                throw gitlabDown();
            }

            @Override
            public Optional<String> progress(Step s) {
                return Progress.ofRequest(app.operations, s);
            }
        }, app.changes, app.policy.transientRetry());

        runUntilDone(step, Step.first(StepKind.CREATE, id.value()));

        assertThat(calls[0]).isEqualTo(app.policy.transientRetry().maxRetries() + 1);
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
    }

    @Test
    void anUnreadableProgressMarkerCountsAsNoProgress() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "nell");
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepHandler() {
            @Override
            public StepOutcome run(Step s) {
                throw gitlabDown();
            }

            @Override
            public Optional<String> progress(Step s) {
                throw new IllegalStateException("database down");
            }
        }, app.changes, app.policy.transientRetry());

        var runs = runUntilDone(step, Step.first(StepKind.CREATE, id.value()));

        assertThat(runs).isEqualTo(app.policy.transientRetry().maxRetries() + 1);
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
    }

    @Test
    void aLostRaceOnAGuardedWriteReRunsTheStepSoItDecidesAgain() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "erin");
        var calls = new int[1];
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            calls[0]++;
            throw new PreemptedException("changed meanwhile");
        }, app.changes, app.policy.transientRetry());

        var outcome = step.run(Step.first(StepKind.CREATE, id.value()));

        assertThat(outcome).isInstanceOfSatisfying(StepOutcome.Reschedule.class,
                again -> assertThat(again.delay()).isEqualTo(Duration.ofSeconds(1)));
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aJvmErrorIsLoggedAndRethrownWithoutWritingAnything() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "frank");
        var writes = app.operations.writes();
        var step = new WorkflowStep(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            throw new StackOverflowError();
        }, app.changes, app.policy.transientRetry());

        assertThatThrownBy(() -> step.run(Step.first(StepKind.CREATE, id.value()))).isInstanceOf(StackOverflowError.class);
        assertThat(app.operations.writes()).isEqualTo(writes);
    }

    @Test
    void whenTheFailureCannotBeWrittenTheExceptionEscapesSoTheSchedulerKeepsTheTask() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "grace");
        app.gitlab.failNext("commit", new IllegalStateException("boom"));
        app.operations.failNextWrite(new IllegalStateException("database down"));

        assertThatThrownBy(() -> {
            while (app.queue.runNext()) {
                // run until the failing write escapes
            }
        }).hasMessage("database down");
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).isPresent();
    }

    @Test
    void anExceptionWhileTheThreadIsInterruptedWritesNothingAndIsRethrownWithTheFlagStillSet() {
        var failure = new IllegalStateException("the client gave up: thread interrupted");
        assertInterruptedWithoutWriting(createStepFailingWith(() -> Thread.currentThread().interrupt(), failure), failure);
    }

    @Test
    void anInterruptedExceptionInTheCauseChainWritesNothingAndRestoresTheInterruptFlag() {
        var failure = new CompletionException(new IllegalStateException("waiting for the answer",
                new InterruptedException("sleep interrupted")));
        assertInterruptedWithoutWriting(createStepFailingWith(() -> { }, failure), failure);
    }

    @Test
    void anInterruptedIoExceptionBehindATransientExternalFailureIsNotRetriedByTheStepButRethrown() {
        var failure = new ExternalCallException("gitlab", ExternalCallException.Kind.IO, 0, "read interrupted",
                new InterruptedIOException("interrupted while reading"));
        assertThat(failure.isTransient()).isTrue();
        assertInterruptedWithoutWriting(createStepFailingWith(() -> { }, failure), failure);
    }

    @Test
    void aClosedByInterruptExceptionInTheCauseChainWritesNothingAndIsRethrown() {
        var failure = new UncheckedIOException(new ClosedByInterruptException());
        assertInterruptedWithoutWriting(createStepFailingWith(() -> { }, failure), failure);
    }

    @Test
    void anInterruptedBatchStepDoesNotRunItsOwnEndingAndIsRethrown() {
        var endings = new ArrayList<RuntimeException>();
        var failure = new IllegalStateException("interrupted", new InterruptedException());
        var step = new WorkflowStep(StepKind.BATCH, s -> {
            throw failure;
        }, (s, cause) -> {
            endings.add(cause);
            return StepOutcome.done();
        }, app.policy.transientRetry());

        assertThatThrownBy(() -> step.run(Step.first(StepKind.BATCH, "17"))).isSameAs(failure);

        assertThat(Thread.interrupted()).isTrue();
        assertThat(endings).isEmpty();
    }

    @Test
    void anInterruptedStepStaysScheduledAndSucceedsWhenTheSchedulerRunsItAgain() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "ivy");
        app.gitlab.failNext("commit", new ExternalCallException("gitlab", ExternalCallException.Kind.IO, 0,
                "connection closed", new ClosedByInterruptException()));

        assertThatThrownBy(() -> {
            while (app.queue.runNext()) {
                // run until the interruption escapes, as the scheduler's shutdown would see it
            }
        }).isInstanceOf(ExternalCallException.class);
        assertThat(Thread.interrupted()).isTrue();
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).isPresent();

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void anUnexpectedExceptionWithoutInterruptionStillWritesTheDeclaredFailure() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "jack");
        var step = createStepFailingWith(() -> { }, new IllegalStateException("boom", new IllegalArgumentException("no")));

        assertThat(step.run(Step.first(StepKind.CREATE, id.value()))).isInstanceOf(StepOutcome.Done.class);

        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
    }

    @Test
    void theRunnerRefusesAStepKindNobodyRegisteredSoTheTaskStays() {
        var withoutBatchSteps = new RunWorkflowStep(List.of(new WorkflowStep(StepKind.CLOSE, WorkflowEvent.CLOSE_FAILED,
                s -> StepOutcome.done(), app.changes, app.policy.transientRetry())));

        assertThatThrownBy(() -> withoutBatchSteps.run(Step.first(StepKind.BATCH, "17")))
                .isInstanceOf(IllegalStateException.class);
    }
}
