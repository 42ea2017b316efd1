package io.changeflow.application.callback;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Command;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.query.RequestWait;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 5: separation of duties, checked by us too. An approval whose approver ({@code decidedBy}) is the
 * requester or the subject does not count: the request keeps waiting for an approver and its view says why.
 */
class SeparationOfDutiesTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId askedBy(String requester, String subject) {
        var id = InMemoryChangeflow.newOperationId();
        app.submit(requester, InMemoryChangeflow.submission(id, FakeTargets.SINGLE, subject));
        app.queue.runUntilIdle();
        return OperationId.of(id);
    }

    private CallbackAnswer approvedBy(OperationId id, String approver) {
        return app.approvalCallback.handle(new Command("cb-" + approver + "-" + id.value(), id.value(), Decision.APPROVED,
                Map.of()).withApprover(approver));
    }

    @Test
    void anApprovalByTheRequesterDoesNotCountAndTheRequestSaysWhyItWaits() {
        var id = askedBy("alice", "bob");
        var writes = app.operations.writes();

        assertThat(approvedBy(id, "alice")).isEqualTo(CallbackAnswer.PROCESSED);

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.operations.writes()).isEqualTo(writes);
        var view = app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("alice"))).orElseThrow();
        assertThat(view.detail()).contains("approval by alice does not count", "the requester", "separation of duties");
        assertThat(view.waiting()).hasValueSatisfying(
                wait -> assertThat(wait.waitingFor()).isEqualTo(RequestWait.WaitingFor.APPROVER));
    }

    @Test
    void anApprovalByTheSubjectDoesNotCountWhateverTheCase() {
        var id = askedBy("alice", "bob");

        approvedBy(id, " BOB ");

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.op(id).detail()).contains("BOB is the subject");
    }

    @Test
    void anotherApproversApprovalCountsAfterwards() {
        var id = askedBy("alice", "alice");
        approvedBy(id, "alice");

        assertThat(approvedBy(id, "amy")).isEqualTo(CallbackAnswer.PROCESSED);

        assertThat(app.op(id).binding()).isNotEqualTo(java.util.Optional.of(BindingStatus.APPROVAL_SENT));
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        // the history (and so the audit export) names who approved
        assertThat(app.operations.history(id)).filteredOn(h -> h.event().name().startsWith("APPROVAL_GRANTED"))
                .extracting(io.changeflow.domain.operation.HistoryEntry::actor).containsExactly("amy");
        var life = new java.util.ArrayList<io.changeflow.application.query.GrantLife>();
        new io.changeflow.application.query.ExportGrantLives(new io.changeflow.application.fake.FakeGrantRecords(app.operations))
                .export(new io.changeflow.application.query.ExportGrantLives.Command(app.op(id).createdAt(),
                        app.op(id).createdAt().plusSeconds(1), java.util.Optional.empty()), life::add);
        assertThat(life).singleElement().satisfies(l -> assertThat(l.approvedBy()).contains("amy"));
    }

    @Test
    void aRejectionByTheRequesterStillCounts() {
        var id = askedBy("alice", "alice");

        app.approvalCallback.handle(new Command("cb-reject", id.value(), Decision.REJECTED, Map.of()).withApprover("alice"));

        assertThat(app.op(id).binding()).contains(BindingStatus.REJECTED);
    }

    @Test
    void theApprovalCheckAppliesTheSameRuleToADecisionItReads() {
        var id = askedBy("alice", "alice");
        app.approvals.decide(id, TicketStatus.APPROVED, "alice");

        app.approvalCheck.checkNow(app.op(id));

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.op(id).detail()).contains("approval by alice does not count");
    }

    /** Every waiting state has a deadline: an approval that did not count leaves the approval deadline in force. */
    @Test
    void theApprovalDeadlineStillEndsTheWaitAfterAnApprovalThatDidNotCount() {
        var id = askedBy("alice", "alice");
        app.approvals.decide(id, TicketStatus.APPROVED, "alice");
        app.approvalCheck.checkNow(app.op(id));
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);

        app.clock.advance(io.changeflow.application.approval.ReconcileApprovals.Policy.defaults().deadline()
                .plus(java.time.Duration.ofMinutes(1)));
        app.approvalCheck.checkNow(app.op(id));

        assertThat(app.op(id).binding()).contains(BindingStatus.REJECTED);
    }
}
