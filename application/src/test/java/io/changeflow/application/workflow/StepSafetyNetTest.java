package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.PushRefused;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
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
class StepSafetyNetTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @AfterEach
    void theTestThreadIsNotLeftInterrupted() {
        Thread.interrupted();
    }

    /** A create step of a fresh request whose body fails with {@code failure} (after {@code before}). */
    private StepSafetyNet createStepFailingWith(Runnable before, RuntimeException failure) {
        return new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            before.run();
            throw failure;
        }, app.changes, app.policy.transientRetry());
    }

    /** Runs {@code step} for a fresh request: the failure escapes unchanged, nothing is written, the flag is set. */
    private void assertInterruptedWithoutWriting(StepSafetyNet step, RuntimeException failure) {
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

        var op = app.assertState(id, BindingStatus.CREATE_FAILED, StepStatus.CREATE_FAILED, Hint.KEEP_WAITING);
        assertThat(op.detail()).doesNotContain("NullPointerException");
        assertThat(app.metrics.count("failed", StepStatus.CREATE_FAILED.name())).isEqualTo(1);
    }

    @Test
    void aCommitGitLabsPushRuleRefusesStopsTheCreateStepSayingWhichRuleAndWhatAMaintainerChanges() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "alice");
        var rule = "Author's email 'changeflow-bot@sandbox.invalid' does not follow the pattern '@corp\\.example$'";
        app.gitlab.failNext("commit", new PushRefused("gitlab", "commit", rule, null));

        app.queue.runUntilIdle();

        var op = app.assertState(id, BindingStatus.CREATE_FAILED, StepStatus.CREATE_FAILED, Hint.KEEP_WAITING);
        assertThat(op.detail()).contains("GitLab's push rule refused Changeflow's push").contains(rule)
                .contains("Settings > Repository > Push rules").contains("re-trigger");
    }

    @Test
    void anUnexpectedExceptionInTheHandleStepWritesHandleError() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submittedAndRun("bob");
        app.decide(id, Decision.APPROVED);
        app.gitlab.failNext("merge", new IllegalArgumentException("unexpected"));

        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_MERGE_FAILED);
    }

    @Test
    void aTransientFailureIsRetriedWithBackoffInsteadOfFailing() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.gitlab.failNext("createBranch", ExternalCallException.status("gitlab", 503, "Service Unavailable"));
        app.gitlab.failNext("createBranch", new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "slow", null));

        app.queue.runNext();
        var retry = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
        assertThat(retry.step().attempt()).isEqualTo(2);
        var full = app.policy.transientRetry().backoff().delayBefore(1);
        assertThat(Duration.between(app.clock.instant(), retry.due())).as("jittered: at least half the exponential delay")
                .isBetween(full.dividedBy(2), full);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aStepThatCannotReachTheDatabaseRunsAgainWithBackoffAndIsNeverMarkedFailed() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "petra");
        var writes = app.operations.writes();
        var outage = new int[] {3 * (app.policy.transientRetry().maxRetries() + 1)};
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            if (outage[0]-- > 0) {
                throw new IllegalStateException("SQL [update operation ...]", new java.sql.SQLTransientConnectionException(
                        "HikariPool-1 - Connection is not available, request timed out after 3000ms"));
            }
            return StepOutcome.done();
        }, app.changes, app.policy.transientRetry());

        var delays = new ArrayList<Duration>();
        var current = Step.first(StepKind.CREATE, id.value());
        StepOutcome outcome;
        while ((outcome = step.run(current)) instanceof StepOutcome.Reschedule again) {
            delays.add(again.delay());
            current = again.step();
        }

        assertThat(outcome).isInstanceOf(StepOutcome.Done.class);
        assertThat(delays).as("more runs than the transient retries allow").hasSize(3 * (app.policy.transientRetry().maxRetries() + 1));
        assertThat(delays.getFirst()).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1_500));
        assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(45)));
        assertThat(delays.getLast()).as("capped").isBetween(Duration.ofSeconds(30), Duration.ofSeconds(45));
        assertThat(app.operations.writes()).as("no failure state written").isEqualTo(writes);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.metrics.count("failed", StepStatus.CREATE_FAILED.name())).isZero();
    }

    @Test
    void aLostConnectionOrAStatementPastItsDeadlineIsTheDatabaseUnavailableTooButABadStatementIsAFailure() {
        var lost = new IllegalStateException(new java.sql.SQLRecoverableException("Communications link failure", "08S01"));
        var deadline = new IllegalStateException(new java.sql.SQLTimeoutException("max_statement_time exceeded"));
        var bad = new IllegalStateException(new java.sql.SQLSyntaxErrorException("You have an error in your SQL syntax"));
        var subjects = new java.util.ArrayDeque<>(List.of("pia", "pim"));
        for (var unavailable : List.of(lost, deadline)) {
            var id = app.submitAccepted(FakeTargets.SINGLE, subjects.removeFirst());
            assertThat(createStepFailingWith(() -> { }, unavailable).run(Step.first(StepKind.CREATE, id.value())))
                    .isInstanceOf(StepOutcome.Reschedule.class);
            assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        }
        var id = app.submitAccepted(FakeTargets.SINGLE, "paula");
        createStepFailingWith(() -> { }, bad).run(Step.first(StepKind.CREATE, id.value()));
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
    }

    private static ExternalCallException rateLimited(Duration wait) {
        return new ExternalCallException("gitlab", ExternalCallException.Kind.HTTP_STATUS, 429, "Too Many Requests",
                null, wait);
    }

    @Test
    void aRateLimitedStepRunsAgainAfterTheWaitGitLabAskedForWithoutUsingUpItsTransientRetries() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "rita");
        var calls = new int[1];
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            calls[0]++;
            if (calls[0] <= 3 * (app.policy.transientRetry().maxRetries() + 1)) {
                throw rateLimited(Duration.ofSeconds(42));
            }
            return StepOutcome.done();
        }, app.changes, app.policy.transientRetry());

        var first = step.run(Step.first(StepKind.CREATE, id.value()));
        assertThat(first).isInstanceOfSatisfying(StepOutcome.Reschedule.class,
                again -> assertThat(again.delay()).isEqualTo(Duration.ofSeconds(42)));
        var runs = runUntilDone(step, ((StepOutcome.Reschedule) first).step()) + 1;

        assertThat(runs).isEqualTo(calls[0]);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aRateLimitWaitIsNeverShorterThanASecondNorLongerThanTenMinutes() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "ruth");
        var waits = new java.util.ArrayDeque<>(List.of(Duration.ZERO, Duration.ofHours(5)));
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            throw rateLimited(waits.removeFirst());
        }, app.changes, app.policy.transientRetry());

        var first = (StepOutcome.Reschedule) step.run(Step.first(StepKind.CREATE, id.value()));
        var second = (StepOutcome.Reschedule) step.run(first.step());

        assertThat(first.delay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(second.delay()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void stepsRefusedTogetherComeBackSpreadOverAGrowingWindowSoTheyDoNotUseUpTheAllowanceTogetherAgain() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "rosa");
        var draws = new java.util.ArrayDeque<>(List.of(0.0, 0.5, 0.999, 0.999, 0.999, 0.999));
        var retries = TransientRetries.until(app.policy.transientRetry(), Duration.ofHours(1), app.clock,
                () -> draws.isEmpty() ? 0.999 : draws.removeFirst());
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
            throw rateLimited(Duration.ofSeconds(5));
        }, app.changes, retries);

        var delays = new ArrayList<Duration>();
        var current = Step.first(StepKind.CREATE, id.value());
        for (var i = 0; i < 6; i++) {
            var again = (StepOutcome.Reschedule) step.run(current);
            delays.add(again.delay());
            current = again.step();
        }

        // the n-th refusal in a row waits between the 5 s asked for and 5 s x (1 + min(n, 4))
        assertThat(delays.get(0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(delays.get(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(delays.get(2)).isBetween(Duration.ofMillis(19_900), Duration.ofSeconds(20));
        assertThat(delays.get(3)).isBetween(Duration.ofMillis(24_900), Duration.ofSeconds(25));
        assertThat(delays.get(4)).isBetween(Duration.ofMillis(24_900), Duration.ofSeconds(25));
        assertThat(delays.get(5)).as("the spread stops growing after four refusals").isEqualTo(delays.get(4));
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void moreFailuresThanTheRetryFloorAreStillRetriedWithinTheTransientDeadline() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dave");
        app.gitlab.failNext("defaultBranch", app.policy.transientRetry().maxRetries() + 6,
                () -> ExternalCallException.status("gitlab", 500, "Internal Server Error"));

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void transientFailuresAreRetriedWithGrowingCappedJitteredDelaysForAnHourThenAPersonIsAsked() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dave");
        app.gitlab.failNext("defaultBranch", 500, () -> ExternalCallException.status("gitlab", 502, "Bad Gateway"));
        var start = app.clock.instant();
        var backoff = app.policy.transientRetry().backoff();
        var delays = new ArrayList<Duration>();

        for (var retry = 1; Duration.between(start, app.clock.instant()).compareTo(Duration.ofMinutes(59)) < 0; retry++) {
            app.queue.runNext();
            assertThat(app.op(id).binding()).as("retry %d, %s after the first failure", retry,
                    Duration.between(start, app.clock.instant())).contains(BindingStatus.MR_CREATING);
            var next = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
            var delay = Duration.between(app.clock.instant(), next.due());
            var full = backoff.delayBefore(retry);
            assertThat(delay).as("delay before retry %d", retry).isBetween(full.dividedBy(2), full);
            assertThat(delay).isLessThanOrEqualTo(backoff.max());
            delays.add(delay);
        }
        assertThat(delays.getFirst()).isLessThan(delays.get(5));
        assertThat(delays.subList(10, delays.size())).as("capped, and jittered: not all the same")
                .allSatisfy(d -> assertThat(d).isBetween(backoff.max().dividedBy(2), backoff.max()))
                .doesNotHaveDuplicates();

        app.queue.runUntilIdle();

        var op = app.op(id);
        assertThat(Duration.between(start, app.clock.instant())).isBetween(Duration.ofHours(1), Duration.ofMinutes(61));
        assertThat(op.binding()).contains(BindingStatus.CREATE_FAILED);
        assertThat(op.step()).isEqualTo(StepStatus.CREATE_GAVE_UP);
        assertThat(op.hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("Gave up after 1 h of GitLab failures (the last: HTTP 502)");
        app.clock.advance(Duration.ofMinutes(5));
        assertThat(app.retryTransientFailures().scheduled())
                .as("nothing retries a request that gave up").isZero();
    }

    @Test
    void progressStartsANewStretchWithItsOwnDeadline() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dora");
        var firstStretch = app.clock.instant();
        while (Duration.between(firstStretch, app.clock.instant()).compareTo(Duration.ofMinutes(50)) < 0) {
            app.gitlab.failNext("defaultBranch", ExternalCallException.status("gitlab", 503, "Service Unavailable"));
            app.queue.runNext();
        }
        // the merge request is opened now (progress: a run that completed and a new state), then the pipeline
        // look fails for another 50 minutes: 100 minutes of failures in all, but no stretch reached an hour
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
        app.runUntilStep(id, StepStatus.CREATE_MR_OPENED);
        var secondStretch = app.clock.instant();
        while (Duration.between(secondStretch, app.clock.instant()).compareTo(Duration.ofMinutes(50)) < 0) {
            app.gitlab.failNext("latestPipeline", ExternalCallException.status("gitlab", 503, "Service Unavailable"));
            app.queue.runNext();
            assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        }
        assertThat(Duration.between(firstStretch, app.clock.instant())).isGreaterThan(Duration.ofMinutes(100));

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    /** Runs {@code step} from its first run until it is done; answers how many runs it took. */
    private static int runUntilDone(StepSafetyNet step, Step first) {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepBody() {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepBody() {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, new StepBody() {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
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
        var step = new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR, s -> {
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
        var step = new StepSafetyNet(StepKind.BATCH, s -> {
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
        var withoutBatchSteps = new RunDueStep(List.of(new StepSafetyNet(StepKind.CLOSE, WorkflowEvent.CLOSE_FAILED,
                s -> StepOutcome.done(), app.changes, app.policy.transientRetry())));

        assertThatThrownBy(() -> withoutBatchSteps.run(Step.first(StepKind.BATCH, "17")))
                .isInstanceOf(IllegalStateException.class);
    }
}
