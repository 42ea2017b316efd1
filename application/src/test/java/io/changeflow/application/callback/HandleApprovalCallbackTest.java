package io.changeflow.application.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.callback.HandleApprovalCallback.Command;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HandleApprovalCallbackTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aDuplicateDeliveryAnswersDuplicateAndChangesNothing() {
        var id = app.submittedAndRun("alice");
        var callback = new Command("req-1", id.value(), Decision.APPROVED, Map.of());
        assertThat(app.approvalCallback.handle(callback)).isEqualTo(CallbackAnswer.PROCESSED);
        var writes = app.operations.writes();
        var queued = app.queue.pending().size();

        assertThat(app.approvalCallback.handle(callback)).isEqualTo(CallbackAnswer.DUPLICATE);

        assertThat(app.operations.writes()).isEqualTo(writes);
        assertThat(app.queue.pending()).hasSize(queued);
    }

    @Test
    void aDeliveryRecordedByAnInstanceThatDiedBeforeWritingTheDecisionIsProcessedOnItsRepeat() {
        var id = app.submittedAndRun("alice");
        // the first delivery's instance recorded the ID and was killed before it wrote the decision
        assertThat(app.inbox.firstDelivery(HandleApprovalCallback.SOURCE, "req-died")).isTrue();
        var callback = new Command("req-died", id.value(), Decision.APPROVED, Map.of());

        assertThat(app.approvalCallback.handle(callback)).isEqualTo(CallbackAnswer.PROCESSED);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        var queued = app.queue.pending().size();
        var writes = app.operations.writes();

        assertThat(app.approvalCallback.handle(callback)).isEqualTo(CallbackAnswer.DUPLICATE);
        assertThat(app.operations.writes()).isEqualTo(writes);
        assertThat(app.queue.pending()).hasSize(queued);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aLateCallbackOfAReplacedOperationIsIgnoredAfterReapplication() {
        var first = app.rejected("bob");
        var second = app.submittedAndRun("bob");

        var late = app.approvalCallback.handle(new Command("req-late", first.value(), Decision.APPROVED, Map.of()));

        assertThat(late).isEqualTo(CallbackAnswer.IGNORED_STALE);
        assertThat(app.op(second).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.op(first).binding()).isEmpty();
        assertThat(app.queue.pending()).isEmpty();
    }

    @Test
    void aCallbackArrivingBeforeSentIsWrittenIsAcceptedAndNotOverwritten() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.approvals.whileSubmitting(form -> assertThat(
                app.approvalCallback.handle(new Command("req-early", form.operationId().value(), Decision.APPROVED, form.ext())))
                .isEqualTo(CallbackAnswer.PROCESSED));

        app.queue.runNext();

        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.operations.history(id)).extracting(h -> h.event())
                .containsExactly(WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.APPROVAL_GRANTED_CREATE);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aSecondDecisionForTheSameRequestIsStale() {
        var id = app.submittedAndRun("dave");
        app.decide(id, Decision.APPROVED);

        assertThat(app.decide(id, Decision.REJECTED)).isEqualTo(CallbackAnswer.IGNORED_STALE);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aCallbackForAnUnknownOrMalformedOperationIsStale() {
        assertThat(app.approvalCallback.handle(new Command("req-x", "0a0a0000-0000-4000-8000-999999999999",
                Decision.APPROVED, Map.of()))).isEqualTo(CallbackAnswer.IGNORED_STALE);
        assertThat(app.approvalCallback.handle(new Command("req-y", "not-an-id", Decision.APPROVED, Map.of())))
                .isEqualTo(CallbackAnswer.IGNORED_STALE);
    }

    @Test
    void aFailedProcessingForgetsTheDeliverySoTheSendersRetryIsProcessed() {
        var id = app.submittedAndRun("erin");
        var callback = new Command("req-2", id.value(), Decision.APPROVED, Map.of());
        app.operations.failNextWrite(new IllegalStateException("database down"));

        assertThatThrownBy(() -> app.approvalCallback.handle(callback)).isInstanceOf(IllegalStateException.class);

        assertThat(app.approvalCallback.handle(callback)).isEqualTo(CallbackAnswer.PROCESSED);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aRejectionEndsRejectedAndTheRequesterCanApplyAgain() {
        var id = app.submittedAndRun("frank");

        assertThat(app.decide(id, Decision.REJECTED)).isEqualTo(CallbackAnswer.PROCESSED);

        app.assertState(id, BindingStatus.REJECTED, StepStatus.APPROVAL_REJECTED, Hint.CAN_REAPPLY);
        assertThat(app.queue.pending()).isEmpty();
    }

    @Test
    void aWithdrawalEndsRejectedToo() {
        var id = app.submittedAndRun("grace");

        app.decide(id, Decision.WITHDRAWN);

        app.assertState(id, BindingStatus.REJECTED, StepStatus.APPROVAL_WITHDRAWN);
    }

    @Test
    void aRejectionInTheCreateFirstOrderAlsoClosesTheMergeRequest() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submittedAndRun("heidi");
        var mr = app.mr(id);

        app.decide(id, Decision.REJECTED);
        app.queue.runUntilIdle();

        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        var op = app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_DONE, Hint.CAN_REAPPLY);
    }

    @Test
    void anApprovalOfABatchableTargetJoinsTheWaitingSet() {
        var id = app.submitAccepted(FakeTargets.BATCHABLE, "ivan");
        app.queue.runUntilIdle();

        assertThat(app.decide(id, Decision.APPROVED)).isEqualTo(CallbackAnswer.PROCESSED);

        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.batches.isWaiting(id)).isTrue();
        assertThat(app.queue.pending()).isEmpty();
    }

    @Test
    void aFullBacklogAfterTheApprovalIsAVisibleFailure() {
        var id = app.submittedAndRun("judy");
        app.queue.capacity(0);

        assertThat(app.decide(id, Decision.APPROVED)).isEqualTo(CallbackAnswer.PROCESSED);

        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).isEmpty();
    }
}
