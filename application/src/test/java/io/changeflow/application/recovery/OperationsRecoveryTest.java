package io.changeflow.application.recovery;

import io.changeflow.application.callback.CallbackAnswer;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operations API's use cases: find, show, re-trigger, close (design section 4, "safe re-entry"). */
class OperationsRecoveryTest {

    private static final String BOT_1 = InMemoryChangeflow.BOTS.get(0);
    private static final String BOT_2 = InMemoryChangeflow.BOTS.get(1);

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId approvedAndCreated(String subject) {
        return app.approvedUntilHandleIsNext(subject);
    }

    private RetriggerStep.Result retrigger(OperationId id) {
        return app.retrigger(id, "customer asked");
    }

    /** Handling stopped with HANDLE_FAILED because merging kept being refused, after bot 1 approved. */
    private OperationId stoppedWhileMerging(String subject) {
        var id = approvedAndCreated(subject);
        for (var i = 0; i <= app.policy.mergeRetries(); i++) {
            app.gitlab.nextMergeResults(MergeResult.CANNOT_BE_MERGED_YET);
        }
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.HANDLE_FAILED);
        return id;
    }

    @Test
    void retriggeringARequestWhoseMergeRequestIsAlreadyMergedFinishesItAsMergedWithoutApprovingAgain() {
        var id = stoppedWhileMerging("alice");
        var approvals = app.gitlab.approveCalls(BOT_1) + app.gitlab.approveCalls(BOT_2);
        app.gitlab.mergeExternally(app.mr(id).project(), app.mr(id).iid());

        var result = retrigger(id);
        app.queue.runUntilIdle();

        assertThat(result).isEqualTo(new RetriggerStep.Result.Retriggered(id, StepKind.HANDLE, true));
        app.assertState(id, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        assertThat(app.gitlab.approveCalls(BOT_1) + app.gitlab.approveCalls(BOT_2)).isEqualTo(approvals);
        assertThat(app.operations.history(id)).extracting(h -> h.event()).doesNotContain(WorkflowEvent.BOTS_APPROVAL_FAILED);
    }

    @Test
    void retriggeringSkipsBotsThatAlreadyApprovedAndMerges() {
        var id = stoppedWhileMerging("bob");

        retrigger(id);
        app.queue.runUntilIdle();

        app.assertMergedWithApprovals(id, 1, 1);
        assertThat(app.gitlab.merges()).isEqualTo(1);
    }

    @Test
    void retriggeringAFailedCreateReusesTheMergeRequestAfterTheMaintainersFixedIt() {
        app.gitlab.nextPipeline(PipelineStatus.FAILED);
        var id = app.approvedAndRun("carol");
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_PIPELINE_FAILED);
        app.gitlab.setPipeline(app.mr(id).project(), app.mr(id).iid(), PipelineStatus.PASSED);

        retrigger(id);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.opens()).isEqualTo(1);
    }

    @Test
    void retriggeringIsAuditedWithTheOperatorAndItsParameters() {
        var id = stoppedWhileMerging("dave");

        retrigger(id);

        assertThat(app.audit.about(id.value())).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("RETRIGGER");
            assertThat(entry.parameters()).containsEntry("reason", "customer asked").containsEntry("step", "HANDLE");
        });
    }

    @Test
    void aRetriggerWhileWaitingForTheApproverAsksTheApprovalSystemNow() {
        var id = app.submittedAndRun("erin");

        assertThat(retrigger(id)).isEqualTo(new RetriggerStep.Result.Retriggered(id, StepKind.CHECK_APPROVAL, true));
        assertThat(app.retrigger.retrigger(new RetriggerStep.Command("nope", "otto", Map.of())))
                .isInstanceOf(RetriggerStep.Result.NotFound.class);
    }

    @Test
    void aRetriggerOnAFullQueueSaysSoAndChangesNothing() {
        var id = stoppedWhileMerging("frank");
        app.queue.capacity(0);

        assertThat(retrigger(id)).isEqualTo(new RetriggerStep.Result.Retriggered(id, StepKind.HANDLE, false));
        assertThat(app.op(id).binding()).contains(BindingStatus.HANDLE_FAILED);
    }

    @Test
    void closingARequestClosesItsMergeRequestFirst() {
        var id = stoppedWhileMerging("grace");

        var result = app.closeRequest.close(new CloseChangeRequest.Command(id.value(), "otto", Map.of()));

        assertThat(result).isInstanceOf(CloseChangeRequest.Result.Closed.class);
        assertThat(app.gitlab.find(app.mr(id).project(), app.mr(id).iid()).orElseThrow().state())
                .isEqualTo(MergeRequestState.CLOSED);
        app.assertState(id, BindingStatus.CLOSED, StepStatus.CLOSED_BY_OPERATOR, Hint.CAN_REAPPLY);
        assertThat(app.audit.about(id.value())).extracting(e -> e.action()).containsExactly("CLOSE");
    }

    @Test
    void closingARequestWhoseMergeRequestMergedMeanwhileLetsMergedWin() {
        var id = stoppedWhileMerging("heidi");
        app.gitlab.mergeExternally(app.mr(id).project(), app.mr(id).iid());

        var result = app.closeRequest.close(new CloseChangeRequest.Command(id.value(), "otto", Map.of()));

        assertThat(result).isInstanceOf(CloseChangeRequest.Result.MergedWins.class);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void closingARequestAwaitingApprovalWithdrawsTheApproval() {
        var id = app.submittedAndRun("ivan");

        app.closeRequest.close(new CloseChangeRequest.Command(id.value(), "otto", Map.of()));

        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
        assertThat(app.approvals.withdrawn()).containsExactly(id);
        assertThat(app.decide(id, Decision.APPROVED)).as("the late decision is stale")
                .isEqualTo(CallbackAnswer.IGNORED_STALE);
    }

    @Test
    void aMergedRequestCannotBeClosed() {
        var id = approvedAndCreated("judy");
        app.queue.runUntilIdle();

        assertThat(app.closeRequest.close(new CloseChangeRequest.Command(id.value(), "otto", Map.of())))
                .isInstanceOf(CloseChangeRequest.Result.NotAllowed.class);
    }

    @Test
    void showingARequestGivesBothLayersHistoryAuditAndTheAllowedActions() {
        var id = stoppedWhileMerging("ken");
        retrigger(id);

        var details = app.showOperation.show(new ShowOperation.Command(id.value())).orElseThrow();

        assertThat(details.request().status()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(details.binding().orElseThrow().operationId()).isEqualTo(id);
        assertThat(details.history()).extracting(h -> h.event()).contains(WorkflowEvent.HANDLE_ERROR);
        assertThat(details.audit()).hasSize(1);
        assertThat(details.allowedActions()).containsExactlyInAnyOrder(OperatorAction.RETRIGGER, OperatorAction.CLOSE);
        assertThat(details.retriggerStep()).contains(StepKind.HANDLE);
    }

    @Test
    void findsRequestsStuckInAStatusByTheDatabaseClock() {
        var stuck = stoppedWhileMerging("leo");
        app.submitAccepted(FakeTargets.SINGLE, "mia");
        app.clock.advance(Duration.ofMinutes(30));

        var found = app.findStuck.find(FindStuckRequests.Command.of(BindingStatus.HANDLE_FAILED,
                Duration.ofMinutes(20), 100));
        var any = app.findStuck.find(FindStuckRequests.Command.any(Duration.ofMinutes(20), 100));

        assertThat(found).extracting(v -> v.operationId()).containsExactly(stuck);
        assertThat(any).hasSize(2);
    }

    @Test
    void expiredIdempotencyKeysArePurgedInChunks() {
        for (var i = 0; i < 5; i++) {
            app.submitAccepted(FakeTargets.SINGLE, "user" + i);
        }
        app.clock.advance(Duration.ofDays(8));

        var result = app.purge.purge(new PurgeExpiredIdempotencyRecords.Command(2, 2));

        assertThat(result).isEqualTo(new PurgeExpiredIdempotencyRecords.Result(4, true));
        assertThat(app.purge.purge(new PurgeExpiredIdempotencyRecords.Command(2, 2)))
                .isEqualTo(new PurgeExpiredIdempotencyRecords.Result(1, false));
        assertThat(app.idempotency.size()).isZero();
    }
}
