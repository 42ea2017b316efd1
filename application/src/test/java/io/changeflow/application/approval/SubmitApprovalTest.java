package io.changeflow.application.approval;

import io.changeflow.application.recovery.RetriggerStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubmitApprovalTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void sendsTheFormAndRecordsSentWithTheTicket() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "alice");

        app.queue.runUntilIdle();

        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(op.approvalTicket()).isEqualTo(app.approvals.ticketOf(id));
        var form = app.approvals.formOf(id).orElseThrow();
        assertThat(form.subject()).isEqualTo("alice");
        assertThat(form.target()).isEqualTo(FakeTargets.SINGLE.value());
    }

    @Test
    void transientFailuresAreRetriedWithBackoffByReschedulingNotSleeping() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        app.approvals.failNextSubmit(new ExternalCallException("approval", ExternalCallException.Kind.HTTP_STATUS, 503, "down", null));
        var before = app.clock.instant();

        app.queue.runNext();

        var retry = app.queue.pending(StepKind.SUBMIT_APPROVAL, id.value()).orElseThrow();
        var full = app.policy.transientRetry().backoff().delayBefore(1);
        assertThat(Duration.between(before, retry.due())).as("jittered: at least half the exponential delay")
                .isBetween(full.dividedBy(2), full);
        assertThat(app.clock.instant()).isEqualTo(before);
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENDING);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aLostAnswerIsRetriedAndStillOpensOnlyOneApproval() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.approvals.loseNextAnswer();

        app.queue.runUntilIdle();

        assertThat(app.approvals.calls()).isEqualTo(2);
        assertThat(app.approvals.opened()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void retriesPastTheTransientDeadlineEndApprovalFailedForAPersonAndAnOperatorCanRetry() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "dave");
        var start = app.clock.instant();
        for (var i = 0; i < 500; i++) {
            app.approvals.failNextSubmit(new ExternalCallException("approval", ExternalCallException.Kind.TIMEOUT, 0, "slow", null));
        }

        app.queue.runUntilIdle();

        var failed = app.assertState(id, BindingStatus.APPROVAL_FAILED, StepStatus.APPROVAL_SUBMIT_GAVE_UP, Hint.CONTACT_MAINTAINERS);
        assertThat(failed.detail()).contains("1 h of approval system failures");
        assertThat(Duration.between(start, app.clock.instant())).isGreaterThanOrEqualTo(Duration.ofHours(1));

        app.approvals.clearSubmitFailures();
        app.retrigger.retrigger(new RetriggerStep.Command(id.value(), "otto", Map.of()));
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void aRefusalByTheApprovalSystemFailsAtOnce() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "erin");
        app.approvals.failNextSubmit(ExternalCallException.status("approval", 400, "missing field"));

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_FAILED);
        assertThat(app.approvals.calls()).isEqualTo(1);
    }

    @Test
    void aDecidedSubmitAnswerIsAppliedAtOnceAndItsCallbackIsThenADuplicate() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "fay");
        // Every answer lost until the transient deadline gives up (then the approval system recovers).
        for (var i = 0; i < 500; i++) {
            app.approvals.loseNextAnswer();
        }
        app.queue.runUntilIdle();
        app.approvals.clearSubmitFailures();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_FAILED);
        var requestId = app.approvals.decide(id, io.changeflow.application.port.out.Approvals.TicketStatus.APPROVED);

        app.retrigger.retrigger(new RetriggerStep.Command(id.value(), "otto", Map.of()));
        app.queue.runNext();

        assertThat(app.op(id).binding()).as("not left waiting in SENT for a callback already sent")
                .contains(BindingStatus.MR_CREATING);
        assertThat(app.approvalCallback.handle(new io.changeflow.application.callback.HandleApprovalCallback.Command(
                requestId, id.value(), io.changeflow.application.callback.HandleApprovalCallback.Decision.APPROVED,
                Map.of()))).isEqualTo(io.changeflow.application.callback.CallbackAnswer.DUPLICATE);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }
}
