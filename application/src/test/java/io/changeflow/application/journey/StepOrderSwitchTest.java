package io.changeflow.application.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import org.junit.jupiter.api.Test;

/**
 * Design 3.6: the step order changes online; approvals sent before the switch and answered after it
 * finish in their own order (the callback reads the payload shape, the create step the stored order).
 */
class StepOrderSwitchTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void approvalsInFlightFinishInTheirOwnOrderWhenTheSwitchIsTurnedOn() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var old = app.submittedAndRun("alice");
        assertThat(app.op(old).binding()).contains(BindingStatus.APPROVAL_SENT);

        app.config.set(Settings.APPROVE_FIRST, "true");
        var fresh = app.submittedAndRun("bob");
        app.decide(old, Decision.APPROVED);
        app.decide(fresh, Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(app.op(old).order()).isEqualTo(StepOrder.CREATE_FIRST);
        assertThat(app.op(fresh).order()).isEqualTo(StepOrder.APPROVE_FIRST);
        assertThat(app.op(old).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(fresh).binding()).contains(BindingStatus.MERGED);
        assertThat(app.operations.history(old)).extracting(h -> h.event()).contains(WorkflowEvent.APPROVAL_GRANTED_MERGE)
                .doesNotContain(WorkflowEvent.APPROVAL_GRANTED_CREATE);
        assertThat(app.operations.history(fresh)).extracting(h -> h.event()).contains(WorkflowEvent.APPROVAL_GRANTED_CREATE);
        assertThat(app.gitlab.opens()).isEqualTo(2);
        assertThat(app.approvals.opened()).isEqualTo(2);
    }

    @Test
    void approvalsInFlightFinishInTheirOwnOrderWhenTheSwitchIsTurnedBackOff() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var inFlight = app.submittedAndRun("carol");

        app.config.set(Settings.APPROVE_FIRST, "false");
        app.decide(inFlight, Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(app.op(inFlight).binding()).contains(BindingStatus.MERGED);
        assertThat(app.approvals.calls()).as("the approval is not requested a second time").isEqualTo(1);
        assertThat(app.operations.history(inFlight)).extracting(h -> h.event())
                .doesNotContain(WorkflowEvent.APPROVAL_REQUESTED);
    }
}
