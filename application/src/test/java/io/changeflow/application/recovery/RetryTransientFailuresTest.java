package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** KEEP_WAITING on a failed request means something acts: the job retries it until the transient deadline. */
class RetryTransientFailuresTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aFullBacklogAtSubmissionRecoversByItselfOnceTheBacklogDrains() {
        app.queue.capacity(0);
        var id = app.submittedApprovingFirst("alice");
        assertThat(app.op(id).step()).isEqualTo(StepStatus.APPROVAL_SUBMIT_FAILED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.KEEP_WAITING);
        assertThat(app.op(id).detail()).contains("retried automatically");

        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().scheduled()).as("still full: nothing scheduled, nothing written").isZero();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.APPROVAL_SUBMIT_FAILED);

        app.queue.capacity(Integer.MAX_VALUE);
        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().scheduled()).isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aBacklogThatNeverDrainsAsksAPersonAtTheTransientDeadline() {
        app.queue.capacity(0);
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        var failedAt = app.clock.instant();

        while (Duration.between(failedAt, app.clock.instant()).compareTo(Duration.ofMinutes(59)) < 0) {
            app.clock.advance(Duration.ofMinutes(1));
            assertThat(app.retryTransientFailures().gaveUp()).isZero();
            assertThat(app.op(id).hint()).isEqualTo(Hint.KEEP_WAITING);
        }
        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().gaveUp()).isEqualTo(1);

        var op = app.assertState(id, BindingStatus.CREATE_FAILED, StepStatus.CREATE_GAVE_UP, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("Gave up after 1 h of automatic retries").contains("re-trigger");
        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures()).isEqualTo(new RetryTransientFailures.Result(0, 0));
    }

    @Test
    void anUnexpectedErrorIsRetriedAndTheRequestGoesOn() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.gitlab.failNext("commit", new IllegalStateException("a bug in the client library"));
        app.queue.runUntilIdle();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_FAILED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.KEEP_WAITING);

        app.clock.advance(Duration.ofSeconds(1));
        assertThat(app.retryTransientFailures().scheduled()).isEqualTo(1);
        var next = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
        assertThat(next.due()).isAfterOrEqualTo(app.clock.instant());
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aFailureThatKeepsComingBackIsRetriedWithGrowingCappedDelaysThenAsksAPersonAfterAnHour() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dave");
        app.gitlab.failNext("commit", 500, () -> new IllegalStateException("a bug in the client library"));
        app.queue.runUntilIdle();
        var firstFailure = app.clock.instant();
        var waits = new ArrayList<Duration>();

        while (app.op(id).step() == StepStatus.CREATE_FAILED
                && Duration.between(firstFailure, app.clock.instant()).compareTo(Duration.ofHours(2)) < 0) {
            app.clock.advance(Duration.ofSeconds(1));
            if (app.retryTransientFailures().scheduled() == 1) {
                waits.add(Duration.between(app.clock.instant(), app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due()));
                app.queue.runUntilIdle();
            }
        }

        var op = app.op(id);
        assertThat(op.step()).isEqualTo(StepStatus.CREATE_GAVE_UP);
        assertThat(op.hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(Duration.between(firstFailure, app.clock.instant())).isBetween(Duration.ofHours(1), Duration.ofMinutes(62));
        var cap = app.policy.transientRetry().backoff().max();
        assertThat(waits).hasSizeGreaterThan(20).allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(cap));
        assertThat(waits.get(0)).isLessThan(waits.get(5));
    }

    @Test
    void progressStartsANewStretch() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "erin");
        app.gitlab.failNext("commit", new IllegalStateException("a bug"));
        app.queue.runUntilIdle();
        app.clock.advance(Duration.ofMinutes(50));
        app.gitlab.failNext("latestPipeline", new IllegalStateException("another bug"));
        app.retryTransientFailures();
        app.queue.runUntilIdle();
        assertThat(app.op(id).step()).as("the retry opened the merge request, then failed anew").isEqualTo(StepStatus.CREATE_FAILED);

        app.clock.advance(Duration.ofMinutes(30));
        var result = app.retryTransientFailures();

        assertThat(result.gaveUp()).as("80 minutes after the first failure, 30 after the last progress").isZero();
        assertThat(result.scheduled()).isEqualTo(1);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aDeterministicFailureIsLeftToAPerson() {
        var id = app.pipelineFailed("frank");
        assertThat(app.op(id).hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);

        app.clock.advance(Duration.ofMinutes(5));

        assertThat(app.retryTransientFailures()).isEqualTo(new RetryTransientFailures.Result(0, 0));
        assertThat(app.queue.pending()).isEmpty();
    }

    /** Issue 20.6: failed requests a person owns (they stay failed) never hide a newer one that is retried. */
    @Test
    void requestsAPersonOwnsAheadOfARetriedOneDoNotHideIt() {
        var small = new RetryTransientFailures(app.operations, app.gitlab, app.queue, app.changes, app.transientRetries, app.cursors, 10);
        for (var i = 0; i < 30; i++) {
            app.gitlab.nextPipeline(PipelineStatus.FAILED);
            var id = app.submitAccepted(FakeTargets.SINGLE, "owned" + i);
            app.queue.runUntilIdle();
            assertThat(app.op(id).hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
        }
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
        app.clock.advance(Duration.ofMinutes(1));
        var retried = app.submitAccepted(FakeTargets.SINGLE, "retried");
        app.gitlab.failNext("commit", new IllegalStateException("a bug in the client library"));
        app.queue.runUntilIdle();
        assertThat(app.op(retried).hint()).isEqualTo(Hint.KEEP_WAITING);
        app.clock.advance(Duration.ofSeconds(1));

        var runs = 0;
        while (app.queue.pending(StepKind.CREATE, retried.value()).isEmpty()) {
            assertThat(++runs).as("within ceil(31 / 10) + 1 = 5 runs").isLessThanOrEqualTo(5);
            small.run(new RetryTransientFailures.Command());
        }
        app.queue.runUntilIdle();
        assertThat(app.op(retried).binding()).contains(BindingStatus.APPROVAL_SENT);
    }
}
