package io.changeflow.application.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import org.junit.jupiter.api.Test;

/** Whole journeys from submission to "in effect", driven through the use cases and the work queue. */
class JourneyTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void approveFirstRequestGoesFromSubmitToValidated() {
        var id = app.submittedApprovingFirst("alice");
        assertThat(app.op(id).order()).isEqualTo(StepOrder.APPROVE_FIRST);

        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.approvals.formOf(id).orElseThrow().ext()).doesNotContainKey("mrId");

        assertThat(app.decide(id, Decision.APPROVED)).isEqualTo(CallbackAnswer.PROCESSED);
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        var mr = app.mr(id);
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
        assertThat(app.gitlab.description(mr.project(), mr.iid())).contains("Changeflow-Operation: " + id.value());
        assertThat(app.gitlab.fileOn(mr.project(), "main", "grants/db-prod-readonly.txt").orElseThrow())
                .contains("alice until=never op=" + id.value());

        app.deployed(id);

        var done = app.op(id);
        assertThat(done.binding()).contains(BindingStatus.VALIDATED);
        assertThat(done.hint()).isEqualTo(Hint.NONE);
        assertThat(app.metrics.count("validated", "db-prod-readonly")).isEqualTo(1);
        assertThat(app.operations.history(id)).extracting(h -> h.event()).containsExactly(
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_CREATE,
                WorkflowEvent.CREATE_STARTED, WorkflowEvent.MR_OPENED, WorkflowEvent.MR_PIPELINE_PASSED,
                WorkflowEvent.HANDLE_STARTED, WorkflowEvent.BOTS_APPROVED, WorkflowEvent.MERGED, WorkflowEvent.DEPLOYED);
    }

    @Test
    void createFirstRequestGoesFromSubmitToValidated() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        assertThat(app.op(id).order()).isEqualTo(StepOrder.CREATE_FIRST);

        app.queue.runUntilIdle();
        var waiting = app.op(id);
        assertThat(waiting.binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.approvals.formOf(id).orElseThrow().ext()).containsEntry("mrId", String.valueOf(app.mr(id).iid()));

        assertThat(app.decide(id, Decision.APPROVED)).isEqualTo(CallbackAnswer.PROCESSED);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);

        app.deployed(id);

        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.operations.history(id)).extracting(h -> h.event()).containsExactly(
                WorkflowEvent.SUBMITTED_CREATE_FIRST, WorkflowEvent.MR_OPENED, WorkflowEvent.MR_PIPELINE_PASSED,
                WorkflowEvent.APPROVAL_REQUESTED, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE,
                WorkflowEvent.HANDLE_STARTED, WorkflowEvent.BOTS_APPROVED, WorkflowEvent.MERGED, WorkflowEvent.DEPLOYED);
        assertThat(app.metrics.count("submitted", "db-prod-readonly")).isEqualTo(1);
        assertThat(app.metrics.count("validated", "db-prod-readonly")).isEqualTo(1);
    }

    @Test
    void batchableRequestIsApprovedFirstAndJoinsTheWaitingSetEvenWithTheOldOrderConfigured() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submitAccepted(FakeTargets.BATCHABLE, "carol");
        assertThat(app.op(id).order()).isEqualTo(StepOrder.APPROVE_FIRST);

        app.queue.runUntilIdle();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.batches.isWaiting(id)).isTrue();
        assertThat(app.gitlab.opens()).isZero();
    }

    @Test
    void reapplicationAfterRejectionReusesTheRowAndTheNewRequestRunsToTheEnd() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var first = app.rejected("dave");
        assertThat(app.op(first).hint()).isEqualTo(Hint.CAN_REAPPLY);

        var second = app.approvedAndRun("dave");
        app.deployed(second);

        assertThat(app.operations.bindingsOf(SubjectId.of("dave"))).singleElement().satisfies(row -> {
            assertThat(row.operationId()).isEqualTo(second);
            assertThat(row.status()).isEqualTo(BindingStatus.VALIDATED);
        });
        assertThat(app.op(first).binding()).isEmpty();
        assertThat(app.op(first).hint()).isEqualTo(Hint.CAN_REAPPLY);
    }
}
