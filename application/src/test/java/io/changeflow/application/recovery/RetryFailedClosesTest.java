package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A refused request whose merge request GitLab would not close is closed later: nothing leaves it open silently. */
class RetryFailedClosesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aCloseFailingUnderGitLabErrorsIsRetriedAndClosesTheMergeRequestOnceGitLabAnswers() {
        app.gitlab.failNext("close", 3, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        var id = app.rejected("alice");
        app.queue.runUntilIdle();
        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_FAILED);
        assertThat(mergeRequestState(id)).isEqualTo(MergeRequestState.OPENED);

        for (var run = 0; run < 20 && app.op(id).step() != StepStatus.CLOSE_DONE; run++) {
            app.clock.advance(Duration.ofMinutes(2));
            assertThat(app.retryTransientFailures().gaveUp()).isZero();
            app.queue.runUntilIdle();
        }

        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(id)).isEqualTo(MergeRequestState.CLOSED);
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.retryTransientFailures()).isEqualTo(new RetryTransientFailures.Result(0, 0));
    }

    @Test
    void aCloseGitLabNeverAcceptsIsAPersonsPastTheTransientDeadlineWithWhatToDo() {
        app.gitlab.failNext("close", 10_000, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        var id = app.rejected("bob");
        app.queue.runUntilIdle();
        var failedAt = app.clock.instant();

        var scheduled = 0;
        while (Duration.between(failedAt, app.clock.instant()).compareTo(Duration.ofMinutes(59)) < 0) {
            app.clock.advance(Duration.ofSeconds(5));
            var result = app.retryTransientFailures();
            assertThat(result.gaveUp()).isZero();
            scheduled += result.scheduled();
            app.queue.runDue();
        }
        // the backoff of the default policy: 2 s doubling up to 1 min, half of each delay random
        assertThat(scheduled).as("retried with capped backoff, not at every run of the job").isBetween(50, 120);
        app.clock.advance(Duration.ofMinutes(1));
        app.queue.runDue();
        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().gaveUp()).isEqualTo(1);

        var op = app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_GAVE_UP, Hint.CAN_REAPPLY);
        assertThat(Convergence.standard().of(op.state())).as("the open merge request is a person's")
                .hasValueSatisfying(wait -> assertThat(wait.ownedByPerson()).isTrue());
        var iid = op.mergeRequest().orElseThrow().iid();
        assertThat(op.detail()).startsWith("Gave up closing merge request !" + iid).contains("after 1 h")
                .contains("close it there by hand").contains("re-trigger the close");
        assertThat(mergeRequestState(id)).isEqualTo(MergeRequestState.OPENED);
        app.clock.advance(Duration.ofHours(1));
        assertThat(app.retryTransientFailures()).as("given up once, then left to the person")
                .isEqualTo(new RetryTransientFailures.Result(0, 0));
        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isEmpty();
    }

    @Test
    void anOperatorsRetriggerTakesAGivenUpCloseBackToACloseAttemptThatClosesTheMergeRequest() {
        var id = givenUpClose("dora");
        app.gitlab.clearFailures("close");

        assertThat(app.retrigger(id, "GitLab is healthy again")).isInstanceOf(RetriggerStep.Result.Retriggered.class);
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(id)).isEqualTo(MergeRequestState.CLOSED);
    }

    @Test
    void aRetriggeredCloseThatFailsAgainIsRetriedAutomaticallyAgainFromItsOwnFailure() {
        var id = givenUpClose("erin");

        app.retrigger(id, "try once more");
        app.queue.runUntilIdle();
        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_FAILED);

        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures()).as("a new stretch of automatic closes, with its own deadline")
                .isEqualTo(new RetryTransientFailures.Result(1, 0));
    }

    /** A rejected request whose close GitLab refused until the retry job gave up (GitLab still refusing). */
    private OperationId givenUpClose(String subject) {
        app.gitlab.failNext("close", 10_000, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        var id = app.rejected(subject);
        app.queue.runUntilIdle();
        for (var run = 0; run < 200 && app.op(id).step() != StepStatus.CLOSE_GAVE_UP; run++) {
            app.clock.advance(Duration.ofMinutes(1));
            app.retryTransientFailures();
            app.queue.runDue();
        }
        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_GAVE_UP);
        assertThat(mergeRequestState(id)).isEqualTo(MergeRequestState.OPENED);
        return id;
    }

    @Test
    void aReapplicationClosesTheMergeRequestItsRefusedPredecessorFailedToClose() {
        app.gitlab.failNext("close", 1, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        var refused = app.rejected("carol");
        app.queue.runUntilIdle();
        app.assertState(refused, BindingStatus.REJECTED, StepStatus.CLOSE_FAILED);

        var again = app.submitAccepted(FakeTargets.SINGLE, "carol");
        assertThat(app.op(refused).binding()).as("detached: no scan of the rows finds it").isEmpty();
        app.queue.runUntilIdle();

        assertThat(app.op(refused).step()).isEqualTo(StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.op(again).mergeRequest().orElseThrow().iid())
                .isNotEqualTo(app.op(refused).mergeRequest().orElseThrow().iid());
        assertThat(mergeRequestState(again)).isEqualTo(MergeRequestState.OPENED);
    }

    /**
     * Finding S3's remainder: the close was already waiting when the re-application came (so the re-application
     * launched none), and failed after it: the request is detached at CLOSE_FAILED, which the scan of the rows by status
     * never reads. The job reads detached requests by step and retries the close like an attached one's.
     */
    @Test
    void aCloseWaitingWhenAReapplicationCameAndFailingAfterItIsRetriedUntilTheMergeRequestIsClosed() {
        var refused = app.rejected("frank");
        assertThat(app.queue.pending(StepKind.CLOSE, refused.value())).as("its close is waiting").isNotEmpty();
        var again = app.submitAccepted(FakeTargets.SINGLE, "frank");
        app.gitlab.failNext("close", 3, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        app.queue.runUntilIdle();
        assertThat(app.op(refused).state().binding()).as("detached").isEmpty();
        assertThat(app.op(refused).step()).isEqualTo(StepStatus.CLOSE_FAILED);
        assertThat(Convergence.standard().of(app.op(refused).state())).as("still this service's")
                .hasValueSatisfying(wait -> assertThat(wait.ownedByPerson()).isFalse());

        for (var run = 0; run < 20 && app.op(refused).step() != StepStatus.CLOSE_DONE; run++) {
            app.clock.advance(Duration.ofMinutes(2));
            assertThat(app.retryTransientFailures().gaveUp()).isZero();
            app.queue.runUntilIdle();
        }

        assertThat(app.op(refused).step()).isEqualTo(StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.CLOSED);
        assertThat(mergeRequestState(again)).isEqualTo(MergeRequestState.OPENED);
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.retryTransientFailures()).isEqualTo(new RetryTransientFailures.Result(0, 0));
    }

    @Test
    void aDetachedCloseGitLabNeverAcceptsIsAPersonsPastTheTransientDeadline() {
        var refused = app.rejected("gina");
        app.submitAccepted(FakeTargets.SINGLE, "gina");
        app.gitlab.failNext("close", 10_000, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
        app.queue.runUntilIdle();
        assertThat(app.op(refused).step()).isEqualTo(StepStatus.CLOSE_FAILED);

        var gaveUp = 0;
        for (var run = 0; run < 200 && gaveUp == 0; run++) {
            app.clock.advance(Duration.ofMinutes(1));
            gaveUp += app.retryTransientFailures().gaveUp();
            app.queue.runDue();
        }

        var op = app.op(refused);
        assertThat(op.state().binding()).isEmpty();
        assertThat(op.step()).isEqualTo(StepStatus.CLOSE_GAVE_UP);
        assertThat(Convergence.standard().of(op.state())).as("the open merge request is a person's")
                .hasValueSatisfying(wait -> assertThat(wait.ownedByPerson()).isTrue());
        assertThat(op.detail()).startsWith("Gave up closing merge request !" + op.mergeRequest().orElseThrow().iid())
                .contains("replaced by a newer request").contains("close it there by hand");
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.OPENED);
        app.clock.advance(Duration.ofHours(1));
        assertThat(app.retryTransientFailures()).isEqualTo(new RetryTransientFailures.Result(0, 0));
    }

    /** The close launched after the rejection was lost (a crash between the write and the launch, a lost task). */
    @Test
    void aRefusedRequestWhoseCloseWasNeverRunIsClosedByTheJob() {
        var refused = app.rejected("hank");
        app.queue.lose(StepKind.CLOSE, refused.value());
        assertThat(app.retryTransientFailures()).as("not while the step that ended it may still launch it")
                .isEqualTo(new RetryTransientFailures.Result(0, 0));

        app.clock.advance(RetryFailedCloses.GRACE.plusSeconds(1));
        assertThat(app.retryTransientFailures().scheduled()).isEqualTo(1);
        app.queue.runUntilIdle();

        app.assertState(refused, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.CLOSED);
    }

    @Test
    void aReplacedRequestWhoseCloseWasNeverRunIsClosedByTheJob() {
        var refused = app.rejected("iris");
        var again = app.submitAccepted(FakeTargets.SINGLE, "iris");
        app.queue.lose(StepKind.CLOSE, refused.value());
        app.queue.runUntilIdle();
        assertThat(app.op(refused).state().binding()).isEmpty();
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.OPENED);

        app.clock.advance(RetryFailedCloses.GRACE.plusSeconds(1));
        assertThat(app.retryTransientFailures().scheduled()).isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(app.op(refused).step()).isEqualTo(StepStatus.CLOSE_DONE);
        assertThat(mergeRequestState(refused)).isEqualTo(MergeRequestState.CLOSED);
        assertThat(mergeRequestState(again)).isEqualTo(MergeRequestState.OPENED);
    }

    /**
     * Finding S8's remainder: a request superseded after its create failed (GitLab had opened its merge request, the
     * request never recorded it) gets a close whose lookup by the request's branch fails at GitLab: CLOSE_FAILED with no
     * merge request recorded. The job still reads it (detached at CLOSE_FAILED) and retries until it finds and closes it.
     */
    @Test
    void aSupersededRequestsCloseThatCouldNotLookItsUnrecordedMergeRequestUpIsRetriedUntilItIsFoundAndClosed() {
        app.targets.withAskFor(FakeTargets.SINGLE, AskPolicy.ANYONE);
        var alices = OperationId.of(InMemoryChangeflow.newOperationId());
        app.operations.beforeNextMergeRequestRecord(() -> {
            throw new IllegalStateException("connection reset");
        });
        app.submit("alice", InMemoryChangeflow.submission(alices.value(), FakeTargets.SINGLE, "bob"));
        app.queue.runUntilIdle();
        assertThat(app.op(alices).binding()).contains(BindingStatus.CREATE_FAILED);
        var orphan = app.gitlab.findBySourceBranch(FakeTargets.PROJECT, MergeRequestTexts.branchOf(alices)).orElseThrow();
        app.gitlab.failNext("findBySourceBranch", 10_000, () -> ExternalCallException.status("gitlab", 502, "Bad Gateway"));

        app.submit("bob", InMemoryChangeflow.submission(InMemoryChangeflow.newOperationId(), FakeTargets.SINGLE, "bob"));
        app.queue.runUntilIdle();
        assertThat(app.op(alices).binding()).as("detached").isEmpty();
        assertThat(app.op(alices).step()).isEqualTo(StepStatus.CLOSE_FAILED);
        assertThat(app.op(alices).mergeRequest()).as("not found yet").isEmpty();
        app.gitlab.clearFailures("findBySourceBranch");

        for (var run = 0; run < 20 && app.op(alices).step() != StepStatus.CLOSE_DONE; run++) {
            app.clock.advance(Duration.ofMinutes(2));
            assertThat(app.retryTransientFailures().gaveUp()).isZero();
            app.queue.runUntilIdle();
        }

        assertThat(app.op(alices).step()).isEqualTo(StepStatus.CLOSE_DONE);
        assertThat(app.gitlab.find(FakeTargets.PROJECT, orphan.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
    }

    private MergeRequestState mergeRequestState(OperationId id) {
        var mr = app.op(id).mergeRequest().orElseThrow();
        return app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state();
    }
}
