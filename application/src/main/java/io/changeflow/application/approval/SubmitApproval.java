package io.changeflow.application.approval;

import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RequestStepBody;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;

/**
 * The approval step ({@link StepKind#SUBMIT_APPROVAL}): hands the approval form to the approval system,
 * writing APPROVAL_SENDING before the call and APPROVAL_SENT after it (only if still sending). A decided
 * answer is applied at once through {@link HandleApprovalCallback}. Design: docs/workflow.md.
 */
public final class SubmitApproval extends RequestStepBody {

    /** The extension field holding the merge request number (create-first order). */
    public static final String MR_ID = "mrId";
    /** The {@code ext} field of a request of a duration (issue 32 item 3): ISO-8601, e.g. {@code PT8H}; no end is sent. */
    public static final String DURATION = "duration";

    private static final System.Logger LOG = System.getLogger(SubmitApproval.class.getName());

    private final Approvals approvals;
    private final StateChanges changes;
    private final HandleApprovalCallback decisions;

    public SubmitApproval(Operations operations, Approvals approvals, StateChanges changes,
                          HandleApprovalCallback decisions) {
        super(operations, LOG, "approval step");
        this.approvals = approvals;
        this.changes = changes;
        this.decisions = decisions;
    }

    @Override
    protected StepOutcome run(Operation op, Step step) {
        toSending(op).ifPresent(this::send);
        return StepOutcome.done();
    }

    /**
     * Sends the approval of {@code op} (SENDING, or a request the approval check found unknown there or
     * pending after a failed send), records the ticket, writes SENT where the table allows it, and
     * applies a decided answer at once.
     *
     * @return true when the approval system took the form; false when it refused it
     * @throws ExternalCallException when the failure is transient (nothing was written)
     */
    boolean send(Operation op) {
        var form = new Approvals.ApprovalForm(op.id(), op.requester(), op.subject().value(), op.target().value(),
                op.reason(), op.expiresAt(), extOf(op));
        Approvals.Ticket answer;
        try {
            answer = approvals.submit(form);
        } catch (ExternalCallException e) {
            if (e.isTransient()) {
                throw e;
            }
            LOG.log(Level.WARNING, "the approval system refused " + op.id(), e);
            changes.applyIfAllowed(op.id(), WorkflowEvent.APPROVAL_SUBMIT_FAILED,
                    "The approval system refused the request; an operator can retry it.");
            return false;
        }
        sent(op, answer);
        return true;
    }

    /**
     * The approval system has the approval ({@code answer}, from a submit or a read): records the
     * ticket, writes SENT where the table allows it, and applies a decided answer at once.
     */
    void sent(Operation op, Approvals.Ticket answer) {
        var ticket = answer.ticket().orElse("?");
        operations.recordApprovalTicket(op.id(), ticket);
        var sent = changes.applyIfAllowed(op.id(), WorkflowEvent.APPROVAL_SUBMITTED,
                "Sent to the approval system (ticket " + ticket + ").");
        if (sent.isEmpty()) {
            LOG.log(Level.INFO, () -> "approval of " + op.id() + " was answered before SENT was written, or SENT already; "
                    + "keeping the state");
        }
        if (answer.decided()) {
            var applied = decisions.handle(commandOf(op, answer));
            LOG.log(Level.INFO, () -> "the approval of " + op.id() + " was " + answer.status() + " already: " + applied);
        }
    }

    /** Back to SENDING after a failed send (the approval check found the approval pending after all). */
    Optional<Operation> requestAgain(Operation op) {
        return toSending(op);
    }

    /** The form's extension fields: the merge request number in the create-first order. */
    static Map<String, String> extOf(Operation op) {
        var ext = new java.util.LinkedHashMap<String, String>();
        op.mergeRequest().ifPresent(mr -> ext.put(MR_ID, String.valueOf(mr.iid())));
        // issue 32 item 3: the approver sees what was asked, a duration counted from when the approved line is written
        op.duration().ifPresent(asked -> ext.put(DURATION, io.changeflow.domain.request.GrantDurations.iso(asked)));
        return Map.copyOf(ext);
    }

    /**
     * A decided approval as the callback would carry it: its {@code requestId} (or, should the approval
     * system not tell it, a key derived from the ticket), its decision and the submitted extension fields.
     */
    static HandleApprovalCallback.Command commandOf(Operation op, Approvals.Ticket ticket) {
        var decision = switch (ticket.status()) {
            case APPROVED -> HandleApprovalCallback.Decision.APPROVED;
            case REJECTED -> HandleApprovalCallback.Decision.REJECTED;
            case WITHDRAWN, PENDING, UNKNOWN -> HandleApprovalCallback.Decision.WITHDRAWN;
        };
        var requestId = ticket.requestId().orElseGet(() -> "ticket:" + ticket.ticket().orElse(op.id().value()) + ":"
                + decision);
        var ext = ticket.ext().isEmpty() ? extOf(op) : ticket.ext();
        return new HandleApprovalCallback.Command(requestId, op.id().value(), decision, ext)
                .withApprover(ticket.decidedBy().orElse(null));
    }

    /** {@link #commandOf(Operation, Approvals.Ticket)} with a note of why it was decided. */
    static HandleApprovalCallback.Command commandOf(Operation op, Approvals.Ticket ticket, String note) {
        return commandOf(op, ticket).withNote(note);
    }

    /** The operation in APPROVAL_SENDING, writing APPROVAL_REQUESTED where that is the way there; empty: nothing to send. */
    private Optional<Operation> toSending(Operation op) {
        var binding = op.binding().orElse(null);
        if (binding == BindingStatus.APPROVAL_SENDING) {
            return Optional.of(op);
        }
        if (binding == BindingStatus.APPROVAL_FAILED
                || (binding == BindingStatus.MR_CREATED && op.order() == StepOrder.CREATE_FIRST)) {
            return Optional.of(changes.apply(op, WorkflowEvent.APPROVAL_REQUESTED,
                    op.mergeRequest().map(mr -> "Requesting approval for merge request !" + mr.iid() + ".")
                            .orElse("Requesting approval again.")));
        }
        LOG.log(Level.INFO, () -> "approval step for " + op.id() + " has nothing to send at " + op.state());
        return Optional.empty();
    }
}
