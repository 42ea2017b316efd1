package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Timeout sweeps: nothing stays "in progress" without an explicit state, even when its task was lost. */
class SweepStuckRequestsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aStepThatLostItsTaskIsScheduledAgainAndTheRequestMovesOn() {
        var id = app.approvalSubmissionLost("alice");

        assertThat(app.sweepStuck().rescheduled()).as("too early to call it lost").isZero();
        app.clock.advance(Duration.ofMinutes(11));
        assertThat(app.sweepStuck().rescheduled()).isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aStepThatIsAliveAndWaitingKeepsItsProgress() {
        var id = app.openedWithPipelineRunning("bob");
        var waiting = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.sweepStuck()).isEqualTo(new SweepStuckRequests.Result(0, 0, 0));
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).contains(waiting);
    }

    @Test
    void aRequestQuietForTooLongGetsTheFailureItsStepDeclares() {
        var id = app.approvalSubmissionLost("carol");
        app.clock.advance(Duration.ofHours(3));

        var result = app.sweepStuck();

        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.rescheduled()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_FAILED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.KEEP_WAITING);
    }

    @Test
    void aMergingRequestQuietForTooLongEndsHandleFailed() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submittedAndRun("dave");
        app.decide(id, Decision.APPROVED);
        app.queue.lose(StepKind.HANDLE, id.value());
        app.clock.advance(Duration.ofHours(3));

        app.sweepStuck();

        app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_MERGE_FAILED);
    }

    @Test
    void anExplicitlyPendingPipelineIsLeftAsItIs() {
        // until the watch records "pending" (past the pending deadline it ends CREATE_PIPELINE_UNFINISHED)
        var id = app.createPipelinePending("erin");
        app.clock.advance(Duration.ofHours(30));

        assertThat(app.sweepStuck()).isEqualTo(new SweepStuckRequests.Result(0, 0, 0));
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_PIPELINE_PENDING);
    }

    /** Issue 36: the lost-task pass used to skip the pending steps, so a watch lost there waited forever. */
    @Test
    void aPendingCreatePipelineWhoseWatchWasLostIsWatchedAgainAndEndsExplicitlyAtThePendingDeadline() {
        var id = app.createPipelinePending("gina");
        app.queue.lose(StepKind.CREATE, id.value());
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.sweepStuck().rescheduled()).isEqualTo(1);
        assertThat(app.queue.isScheduled(StepKind.CREATE, id.value())).isTrue();
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.CREATE_FAILED, StepStatus.CREATE_PIPELINE_UNFINISHED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
    }

    @Test
    void aPendingHandlePipelineWhoseWatchWasLostIsWatchedAgainAndMergesWhenItPasses() {
        var approving = InMemoryChangeflow.approvingFirst();
        approving.gitlab.nextNeedRebase(false, io.changeflow.application.port.out.MergeRequests.PipelineStatus.RUNNING);
        var id = approving.submittedAndRun("hank");
        approving.decide(id, Decision.APPROVED);
        approving.runUntilStep(id, StepStatus.HANDLE_PIPELINE_PENDING);
        approving.queue.lose(StepKind.HANDLE, id.value());
        approving.clock.advance(Duration.ofMinutes(11));

        assertThat(approving.sweepStuck().rescheduled()).isEqualTo(1);
        approving.gitlab.setPipeline(approving.mr(id).project(), approving.mr(id).iid(),
                io.changeflow.application.port.out.MergeRequests.PipelineStatus.PASSED);
        approving.queue.runUntilIdle();

        assertThat(approving.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aLostBatchAdmissionIsAdmittedAgain() {
        var id = app.submitAccepted(FakeTargets.BATCHABLE, "frank");
        app.queue.runUntilIdle();
        app.batches.failNextAdmit(new IllegalStateException("database hiccup"));
        try {
            app.decide(id, Decision.APPROVED);
        } catch (IllegalStateException expected) {
            // the sender retries; the state already says BATCH_WAITING
        }
        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.batches.isWaiting(id)).isFalse();
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.sweepStuck().readmitted()).isEqualTo(1);
        assertThat(app.batches.isWaiting(id)).isTrue();
        assertThat(app.sweepStuck().readmitted()).isZero();
    }

    /** Issue 20.6: requests the sweep leaves as they are (explicitly pending) never hide a stuck one behind them. */
    @Test
    void pendingRequestsAheadOfAStuckOneDoNotHideItFromTheSweep() {
        var sweep = new SweepStuckRequests(app.operations, app.targets, app.batches, app.queue, app.changes, app.cursors,
                new SweepStuckRequests.Policy(Duration.ofMinutes(10), Duration.ofHours(2), 2));
        var pending = new java.util.ArrayList<io.changeflow.domain.request.OperationId>();
        for (var i = 0; i < 5; i++) {
            // until the watch records "pending" (running it until idle would reach the pending deadline)
            var id = app.createPipelinePending("pending" + i);
            pending.add(id);
        }
        app.clock.advance(Duration.ofMinutes(1));
        var stuck = app.approvalSubmissionLost("stuck");
        app.clock.advance(Duration.ofHours(3));

        var runs = 0;
        while (app.op(stuck).binding().equals(java.util.Optional.of(BindingStatus.APPROVAL_SENDING))) {
            assertThat(++runs).as("within ceil(6 / 2) = 3 runs").isLessThanOrEqualTo(3);
            sweep.sweep(new SweepStuckRequests.Command());
        }

        assertThat(app.op(stuck).binding()).contains(BindingStatus.APPROVAL_FAILED);
        assertThat(pending).allSatisfy(id -> assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_PIPELINE_PENDING));
    }

    /** Waiting for the approver is the approval check's (ReconcileApprovals), not the sweep's. */
    @Test
    void waitingForTheApproverIsLeftToTheApprovalCheck() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submittedAndRun("grace");
        app.clock.advance(Duration.ofDays(3));

        assertThat(app.sweepStuck()).isEqualTo(new SweepStuckRequests.Result(0, 0, 0));
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.approvalCheck.reconcile(new ReconcileApprovals.Command()).examined())
                .as("the approval check asks the approval system about it").isEqualTo(1);
    }
}
