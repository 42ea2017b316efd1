package io.changeflow.application.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleApprovalCallback.Command;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The approval check on in-memory fakes: lost approval callbacks converge without anyone's help. */
class ReconcileApprovalsTest {

    private static final Duration AFTER = ReconcileApprovals.Policy.DEFAULT_AFTER;

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void anApprovalWhoseCallbackWasLostLaunchesTheNextStepOnceAndTheLateCallbackIsADuplicate() {
        var id = sent("alice");
        var requestId = app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER);

        var result = check();

        assertThat(result.decided()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).isPresent();
        var late = app.approvalCallback.handle(new Command(requestId, id.value(), Decision.APPROVED, Map.of()));
        assertThat(late).isEqualTo(CallbackAnswer.DUPLICATE);
        app.clock.advance(AFTER);
        assertThat(check().decided()).isZero();
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.operations.history(id)).extracting(h -> h.event())
                .containsOnlyOnce(WorkflowEvent.APPROVAL_GRANTED_CREATE, WorkflowEvent.MERGED);
        assertThat(app.queue.ran()).filteredOn(s -> s.kind() == StepKind.CREATE && s.attempt() == 1).hasSize(1);
    }

    @Test
    void anApprovalWhoseCallbackWasRecordedByAnInstanceThatDiedBeforeApplyingItIsStillDecided() {
        var id = sent("alice");
        var requestId = app.approvals.decide(id, TicketStatus.APPROVED);
        // the callback reached an instance that recorded its requestId and was killed before writing the decision
        assertThat(app.inbox.firstDelivery(HandleApprovalCallback.SOURCE, requestId)).isTrue();
        app.clock.advance(AFTER);

        var result = check();

        assertThat(result.decided()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aRequestIsNotAskedAboutBeforeItHasWaitedTheConfiguredTime() {
        var id = sent("bob");
        app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER.minusSeconds(1));

        var result = check();

        assertThat(result.examined()).isZero();
        assertThat(app.approvals.reads()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aRejectionWhoseCallbackWasLostEndsRejected() {
        var id = sent("carol");
        app.approvals.decide(id, TicketStatus.REJECTED);
        app.clock.advance(AFTER);

        check();

        var op = app.assertState(id, BindingStatus.REJECTED, StepStatus.APPROVAL_REJECTED);
        assertThat(op.detail()).isEqualTo("The approver rejected the request.");
    }

    @Test
    void aCreateFirstApprovalFoundDecidedApprovesAndMergesItsMergeRequest() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submittedAndRun("cecile");
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER);

        check();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGING);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void anApprovalTheApprovalSystemDoesNotKnowIsSubmittedAgain() {
        var id = sent("dave");
        app.approvals.forget(id);
        app.clock.advance(AFTER);

        var result = check();

        assertThat(result.resubmitted()).isEqualTo(1);
        assertThat(app.approvals.statusOf(id)).contains(TicketStatus.PENDING);
        assertThat(app.op(id).approvalTicket()).isEqualTo(app.approvals.ticketOf(id));
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER);
        check();
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aPendingApprovalWithinItsDeadlineIsLeftAlone() {
        var id = sent("erin");
        app.clock.advance(Duration.ofDays(6));

        var result = check();

        assertThat(result.examined()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.approvals.withdrawn()).isEmpty();
    }

    @Test
    void anApprovalStillPendingPastTheDeadlineIsWithdrawnAndTheRequestEndsRejectedSayingWhy() {
        var id = sent("frank");
        app.clock.advance(ReconcileApprovals.Policy.DEFAULT_DEADLINE);

        var result = check();

        assertThat(result.withdrawn()).isEqualTo(1);
        assertThat(app.approvals.withdrawn()).containsExactly(id);
        var op = app.assertState(id, BindingStatus.REJECTED, StepStatus.APPROVAL_WITHDRAWN);
        assertThat(op.detail()).isEqualTo("No approver decided within 7 days; the request was withdrawn. You can apply again.");
        assertThat(op.hint()).isEqualTo(Hint.CAN_REAPPLY);
        var withdrawnCallback = app.approvals.read(id).requestId().orElseThrow();
        assertThat(app.approvalCallback.handle(new Command(withdrawnCallback, id.value(), Decision.WITHDRAWN, Map.of())))
                .isEqualTo(CallbackAnswer.DUPLICATE);
        assertThat(app.submitAccepted(FakeTargets.SINGLE, "frank")).as("the person can apply again").isNotEqualTo(id);
    }

    @Test
    void theRequestsOwnExpiryIsAnEarlierDeadline() {
        var id = OperationId.of(InMemoryChangeflow.newOperationId());
        var expiresAt = app.clock.instant().plus(Duration.ofDays(2));
        app.submit("grace", new io.changeflow.domain.request.Submission(id.value(), FakeTargets.SINGLE.value(), "grace",
                "needed for the quarterly report", expiresAt.toString()));
        app.queue.runUntilIdle();
        app.clock.advance(Duration.ofDays(2));

        check();

        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.REJECTED);
        assertThat(op.detail()).isEqualTo("No approver decided before the requested access would have ended ("
                + expiresAt + "); the request was withdrawn. You can apply again.");
    }

    @Test
    void aDecisionMadeJustBeforeTheWithdrawalCounts() {
        var id = sent("heidi");
        app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(ReconcileApprovals.Policy.DEFAULT_DEADLINE.plusDays(1));

        check();

        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.approvals.withdrawn()).isEmpty();
    }

    @Test
    void whileTheApprovalSystemIsDownNothingChangesAndTheCheckBacksOff() {
        var id = sent("ivan");
        app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER);
        var before = app.op(id);
        var history = app.operations.history(id);
        app.approvals.down(true);

        var failed = check();

        assertThat(failed.approvalSystemDown()).isTrue();
        assertThat(app.op(id)).isEqualTo(before);
        assertThat(app.operations.history(id)).isEqualTo(history);
        assertThat(app.queue.pending()).isEmpty();
        app.approvals.down(false);
        var readsBefore = app.approvals.reads();
        assertThat(check().approvalSystemDown()).as("paused: the next run is skipped").isTrue();
        assertThat(app.approvals.reads()).isEqualTo(readsBefore);
        assertThat(app.op(id)).isEqualTo(before);

        app.clock.advance(ReconcileApprovals.Policy.DEFAULT_EVERY.multipliedBy(2));
        var recovered = check();

        assertThat(recovered.approvalSystemDown()).isFalse();
        assertThat(recovered.decided()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void theBackOffGrowsWithEachFailedRunAndIsCapped() {
        sent("judy");
        app.clock.advance(AFTER);
        app.approvals.down(true);
        assertThat(check().approvalSystemDown()).isTrue();
        var pauses = new ArrayList<Duration>();
        for (var failure = 0; failure < 5; failure++) {
            var failedAt = app.clock.instant();
            var reads = app.approvals.reads();
            while (app.approvals.reads() == reads) {
                app.clock.advance(Duration.ofSeconds(10));
                assertThat(check().approvalSystemDown()).isTrue();
            }
            pauses.add(Duration.between(failedAt, app.clock.instant()));
        }
        var every = ReconcileApprovals.Policy.DEFAULT_EVERY;
        assertThat(pauses).containsExactly(every.multipliedBy(2), every.multipliedBy(4), every.multipliedBy(8),
                every.multipliedBy(16), every.multipliedBy(16));
    }

    @Test
    void aSendWhoseAnswersWereLostEndsFailedAndTheLateCallbackNowMovesItOn() {
        var id = failedAfterLostAnswers("kim");
        var requestId = app.approvals.decide(id, TicketStatus.APPROVED);

        var answer = app.approvalCallback.handle(new Command(requestId, id.value(), Decision.APPROVED, Map.of()));

        assertThat(answer).isEqualTo(CallbackAnswer.PROCESSED);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aFailedSendTheApproverDecidedIsFoundByTheCheckAndProceeds() {
        var id = failedAfterLostAnswers("leo");
        var requestId = app.approvals.decide(id, TicketStatus.APPROVED);
        app.clock.advance(AFTER);

        var result = check();

        assertThat(result.decided()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.approvalCallback.handle(new Command(requestId, id.value(), Decision.APPROVED, Map.of())))
                .isEqualTo(CallbackAnswer.DUPLICATE);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aFailedSendTheApprovalSystemHoldsPendingGoesBackToWaitingForTheApprover() {
        var id = failedAfterLostAnswers("mia");
        app.clock.advance(AFTER);

        var result = check();

        assertThat(result.resubmitted()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.op(id).approvalTicket()).isEqualTo(app.approvals.ticketOf(id));
        assertThat(app.approvals.opened()).isEqualTo(1);
    }

    @Test
    void aRefusedSendTheApprovalSystemDoesNotKnowIsLeftToItsOperator() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "nina");
        app.approvals.failNextSubmit(io.changeflow.application.port.out.ExternalCallException.status("approval", 400, "no"));
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_FAILED);
        var before = app.op(id);
        app.clock.advance(ReconcileApprovals.Policy.DEFAULT_DEADLINE.plusDays(1));

        check();

        assertThat(app.op(id)).isEqualTo(before);
        assertThat(app.approvals.calls()).isEqualTo(1);
        assertThat(app.approvals.withdrawn()).isEmpty();
    }

    @Test
    void aLateCallbackForAReplacedOperationStaysIgnored() {
        var first = failedAfterLostAnswers("olga");
        var requestId = app.approvals.decide(first, TicketStatus.REJECTED);
        app.approvalCallback.handle(new Command(requestId, first.value(), Decision.REJECTED, Map.of()));
        var second = app.submittedAndRun("olga");

        var late = app.approvalCallback.handle(new Command("req-late", first.value(), Decision.APPROVED, Map.of()));

        assertThat(late).isEqualTo(CallbackAnswer.IGNORED_STALE);
        assertThat(app.op(first).binding()).isEmpty();
        assertThat(app.op(second).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aRetriggerWhileWaitingForTheApproverAsksTheApprovalSystemNow() {
        var id = sent("paul");
        app.approvals.decide(id, TicketStatus.APPROVED);

        var result = app.retrigger.retrigger(new RetriggerStep.Command(id.value(), "otto", Map.of()));

        assertThat(result).isEqualTo(new RetriggerStep.Result.Retriggered(id, StepKind.CHECK_APPROVAL, true));
        app.queue.runNext();
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
    }

    @Test
    void aRetriggerWhileTheApproverHasNotDecidedChangesNothing() {
        var id = sent("quinn");
        var before = app.op(id);

        app.retrigger.retrigger(new RetriggerStep.Command(id.value(), "otto", Map.of()));
        app.queue.runUntilIdle();

        assertThat(app.op(id)).isEqualTo(before);
    }

    /**
     * Fairness: 1,000 requests that never advance (pending, older, and earlier in the walk) ahead of one
     * whose approval was decided. With the default limit of 100 a run looks at 100 of the 1,001 candidates,
     * so the decided one is reached within ceil(1001 / 100) = 11 runs.
     */
    @Test
    void oneThousandRequestsThatNeverAdvanceDoNotStarveTheOneThatCan() {
        for (var i = 0; i < 1000; i++) {
            sent("waiting-" + i);
        }
        app.clock.advance(Duration.ofMinutes(1));
        var decided = sent("decided");
        app.approvals.decide(decided, TicketStatus.APPROVED);
        app.clock.advance(AFTER);

        var runs = 0;
        while (app.op(decided).binding().equals(java.util.Optional.of(BindingStatus.APPROVAL_SENT)) && runs < 50) {
            check();
            runs++;
        }

        assertThat(app.op(decided).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(runs).isLessThanOrEqualTo(11);
    }

    @Test
    void settingsFallBackToTheirDefaultsWhenMissingGarbledZeroOrNegative() {
        var defaults = ReconcileApprovals.Policy.defaults();
        for (var bad : new String[] {null, "", "  ", "ten minutes", "10x", "0", "0s", "-5m", "PT-1M", "P0D",
                "99999999999999d"}) {
            assertThat(ReconcileApprovals.Policy.of(bad, bad, bad, bad)).as(String.valueOf(bad)).isEqualTo(defaults);
        }
        assertThat(ReconcileApprovals.Policy.of("30s", "10s", "2d", "25"))
                .isEqualTo(new ReconcileApprovals.Policy(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofDays(2), 25));
        assertThat(ReconcileApprovals.Policy.of("PT2M", " 1500 ", "36h", "abc"))
                .isEqualTo(new ReconcileApprovals.Policy(Duration.ofMinutes(2), Duration.ofMillis(1500), Duration.ofHours(36),
                        ReconcileApprovals.Policy.DEFAULT_LIMIT));
        assertThat(defaults).isEqualTo(new ReconcileApprovals.Policy(Duration.ofMinutes(10), Duration.ofMinutes(1),
                Duration.ofDays(7), 100));
    }

    @ParameterizedTest(name = "{0} is spoken as \"{1}\"")
    @CsvSource({"P7D, 7 days", "P1D, 1 day", "PT36H, 36 hours", "PT90M, 90 minutes", "PT45S, 45 seconds"})
    void deadlinesAreSpokenTheWayPeopleSayThem(Duration deadline, String spoken) {
        assertThat(ReconcileApprovals.spoken(deadline)).isEqualTo(spoken);
    }

    private ReconcileApprovals.Result check() {
        return app.approvalCheck.reconcile(new ReconcileApprovals.Command());
    }

    private OperationId sent(String subject) {
        var id = app.submitAccepted(FakeTargets.SINGLE, subject);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        return id;
    }

    /** The approval system took the form every time, but every answer was lost: APPROVAL_FAILED. */
    private OperationId failedAfterLostAnswers(String subject) {
        var id = app.submitAccepted(FakeTargets.SINGLE, subject);
        // Every answer lost until the transient deadline gives up (then the approval system recovers).
        for (var i = 0; i < 500; i++) {
            app.approvals.loseNextAnswer();
        }
        app.queue.runUntilIdle();
        app.approvals.clearSubmitFailures();
        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.APPROVAL_FAILED);
        assertThat(op.approvalTicket()).isEmpty();
        assertThat(app.approvals.statusOf(id)).contains(TicketStatus.PENDING);
        return id;
    }
}
