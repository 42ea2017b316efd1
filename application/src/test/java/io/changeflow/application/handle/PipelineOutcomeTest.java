package io.changeflow.application.handle;

import io.changeflow.application.query.RequestView;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;

/**
 * Design 3.5: a failed pipeline is deterministic ("contact the maintainers"), a timed-out one is
 * unknown ("you can keep waiting"); the user sees the difference in the request view.
 */
class PipelineOutcomeTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId handledAfterRebase(String subject, PipelineStatus... pipelineAfterRebase) {
        app.gitlab.nextNeedRebase(false, pipelineAfterRebase);
        return app.approvedAndRun(subject);
    }

    /** Approved and run until the rebased head's pipeline, still running, is past its timeout. */
    private OperationId pendingAfterRebase(String subject) {
        app.gitlab.nextNeedRebase(false, PipelineStatus.RUNNING);
        var id = app.submittedAndRun(subject);
        app.decide(id, Decision.APPROVED);
        app.runUntilStep(id, StepStatus.HANDLE_PIPELINE_PENDING);
        return id;
    }

    private RequestView view(OperationId id, String requester) {
        return app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified(requester))).orElseThrow();
    }

    @Test
    void aPipelineFailedAfterTheRebaseFailsTheRequestAndAsksToContactTheMaintainers() {
        var id = handledAfterRebase("alice", PipelineStatus.RUNNING, PipelineStatus.FAILED);

        var view = view(id, "alice");

        assertThat(view.status()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(view.step()).isEqualTo(StepStatus.HANDLE_PIPELINE_FAILED);
        assertThat(view.hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
    }

    @Test
    void aPipelineTimedOutAfterTheRebaseKeepsWaitingWhileLookedAtThenAsksAPersonAtThePendingDeadline() {
        var id = pendingAfterRebase("bob");

        var pending = view(id, "bob");
        assertThat(pending.status()).contains(BindingStatus.MERGING);
        assertThat(pending.hint()).isEqualTo(Hint.KEEP_WAITING);

        app.queue.runUntilIdle();

        var view = view(id, "bob");
        assertThat(view.status()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(view.step()).isEqualTo(StepStatus.HANDLE_PIPELINE_UNFINISHED);
        assertThat(view.hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(view.detail()).contains("Check the pipeline on GitLab");
        assertThat(app.gitlab.merges()).isZero();
    }

    @Test
    void aPipelinePassingAfterItTimedOutStillMergesWhileItIsLookedAt() {
        var id = pendingAfterRebase("carol");

        app.gitlab.setPipeline(app.mr(id).project(), app.mr(id).iid(), PipelineStatus.PASSED);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void theCreatePipelineShowsTheSameDifference() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var failed = app.pipelineFailed("dave");
        var timedOut = app.createPipelinePending("erin");

        assertThat(view(failed, "dave").hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(view(timedOut, "erin").hint()).isEqualTo(Hint.KEEP_WAITING);
        assertThat(view(timedOut, "erin").status()).contains(BindingStatus.MR_CREATING);
    }

    /**
     * Issue 30's open point after finding S7 (docs/reliability.md): can the handle step's watch, resumed without its
     * counters (its task lost, started again by a job) on a request recorded HANDLE_PIPELINE_PENDING, stay in that state
     * past its pending deadline as the create step's did? No: the handle step starts over from the approval (a new state
     * write, HANDLE_APPROVED, whose own deadline counts afresh), watches the pipeline again, records it pending again, and
     * gives up at the pending deadline of that new record.
     */
    @Test
    void aResumedWatchOfAPipelineRecordedPendingBeforeMergingStartsOverAndGivesUpAtThePendingDeadlineOfItsNewRecord() {
        var id = pendingAfterRebase("ivan");
        app.queue.lose(io.changeflow.application.port.out.WorkQueue.StepKind.HANDLE, id.value());
        var steps = new java.util.ArrayList<StepStatus>();
        var recordedPendingAt = app.op(id).updatedAt();
        for (var hours = 0; hours < 60 && app.op(id).step() != StepStatus.HANDLE_PIPELINE_UNFINISHED; hours++) {
            app.clock.advance(java.time.Duration.ofHours(1));
            app.sweepStuck();
            app.retryTransientFailures();
            app.queue.runDue();
            var op = app.op(id);
            if (op.step() == StepStatus.HANDLE_PIPELINE_PENDING && !steps.isEmpty() && steps.getLast() != StepStatus.HANDLE_PIPELINE_PENDING) {
                recordedPendingAt = op.updatedAt();
            }
            steps.add(op.step());
        }

        assertThat(steps).as("started over: a new state write, not the old record resumed in place")
                .contains(StepStatus.HANDLE_APPROVED);
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_PIPELINE_UNFINISHED);
        assertThat(java.time.Duration.between(recordedPendingAt, app.clock.instant()))
                .isLessThanOrEqualTo(app.policy.pendingGiveUpAfter().plus(java.time.Duration.ofHours(1)));
    }
}
