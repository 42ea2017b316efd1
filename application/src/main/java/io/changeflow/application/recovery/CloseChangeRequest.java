package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.workflow.AuditedOperatorAction;
import io.changeflow.application.workflow.OperatorCommand;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.UnrecordedMergeRequest;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Settlement;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Map;

/**
 * An operator closes a request without merging. The merge request is closed first and re-read, and
 * "merged" wins (a merged merge request can no longer be closed, so a merge that raced the close is
 * never lost: the request is recorded as merged instead). A pending approval is withdrawn on a best
 * effort basis (a late decision is ignored as stale anyway). Then CLOSED_BY_OPERATOR is written, if
 * the table still allows it. Recorded in the audit log.
 */
public final class CloseChangeRequest {

    /** The audit action. */
    static final String ACTION = "CLOSE";

    private static final System.Logger LOG = System.getLogger(CloseChangeRequest.class.getName());

    /**
     * @param operationId as sent (untrusted)
     * @param operator    the authenticated operator (written by the server)
     * @param parameters  already masked and truncated, for the audit entry
     */
    public record Command(String operationId, String operator, Map<String, String> parameters)
            implements OperatorCommand {}

    /** The answer. */
    public sealed interface Result {
        record NotFound() implements Result {}

        /** The table does not allow closing from the current state (e.g. merged, in a batch, final). */
        record NotAllowed(String reason) implements Result {}

        /** Closed: the merge request (if any) is closed and the request says CLOSED. */
        record Closed() implements Result {}

        /** The merge request turned out merged: the request is recorded as merged, not closed. */
        record MergedWins() implements Result {}

        /** The merge request is still open after the close, or GitLab could not be reached: nothing changed, retry later. */
        record RetryLater(String reason) implements Result {}
    }

    private final Operations operations;
    private final Targets targets;
    private final MergeRequests mergeRequests;
    private final UnrecordedMergeRequest unrecorded;
    private final Approvals approvals;
    private final StateChanges changes;
    private final AuditedOperatorAction audit;

    public CloseChangeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, Approvals approvals,
                              StateChanges changes, AuditLog audit, Clock clock) {
        this.operations = operations;
        this.targets = targets;
        this.mergeRequests = mergeRequests;
        this.unrecorded = new UnrecordedMergeRequest(operations, targets, mergeRequests);
        this.approvals = approvals;
        this.changes = changes;
        this.audit = new AuditedOperatorAction(operations, audit, clock, ACTION);
    }

    public Result close(Command command) {
        var found = operations.find(command.operationId());
        if (found.isEmpty()) {
            return new Result.NotFound();
        }
        var op = found.get();
        if (op.kind().removes()) {
            var result = closeRemoval(op, command.operator());
            audit.record(command, op.id(), result);
            return result;
        }
        if (Transitions.check(op.state(), WorkflowEvent.CLOSED_BY_OPERATOR) instanceof Transition.Refused refused) {
            return new Result.NotAllowed("A request cannot be closed while it is " + op.state() + ": " + refused.reason() + ".");
        }
        var note = new StepNote("Closed by an operator without merging.", command.operator());
        Result result;
        try {
            result = closeRemotely(op);
        } catch (ExternalCallException e) {
            LOG.log(Level.WARNING, "closing " + op.id() + ": GitLab could not be reached", e);
            result = new Result.RetryLater("GitLab could not be reached; nothing was changed.");
        }
        if (result instanceof Result.Closed) {
            // Pinned to the version read before closing: a request that moved on meanwhile is not overwritten (its
            // step sees the closed merge request itself); the operator looks again.
            result = closedIfUnchanged(op, note);
        }
        audit.record(command, op.id(), result);
        return result;
    }

    /**
     * Issue 36: a removal of a grant is closed only when its target left the catalog, where no removal round can take
     * its line out any more (its partition's round no longer runs, its admission is refused): it ends REMOVAL_REJECTED (nothing was removed; the grant as last known, a person decides).
     * On a catalog target closing would leave the line in the file while the row says it ended: re-trigger it instead.
     */
    private Result closeRemoval(Operation op, String operator) {
        if (targets.find(op.target()).isPresent()) {
            return new Result.NotAllowed("A removal of a grant on a target in the catalog is not closed (its line would"
                    + " stay in the file while the request says it ended): re-trigger it, it goes back to its file's"
                    + " removal round.");
        }
        if (Transitions.check(op.state(), WorkflowEvent.REMOVAL_CLOSED) instanceof Transition.Refused refused) {
            return new Result.NotAllowed("A removal can be closed only while it waits for its removal round or once it"
                    + " failed as a batch member; it is "
                    + op.state() + ": " + refused.reason() + ".");
        }
        var note = new StepNote("Closed by an operator: the target " + op.target() + " is no longer in the catalog, so"
                + " no removal round can take the line out; nothing was removed, the grant stays as last known (check"
                + " the file where the target now lives).", operator);
        try {
            changes.apply(op, WorkflowEvent.REMOVAL_CLOSED, note);
            return new Result.Closed();
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            return new Result.RetryLater("The request changed meanwhile; look at it again.");
        }
    }

    private Result closedIfUnchanged(Operation op, StepNote note) {
        try {
            changes.apply(op, WorkflowEvent.CLOSED_BY_OPERATOR, note);
            return new Result.Closed();
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            return new Result.RetryLater("The request changed meanwhile; look at it again.");
        }
    }

    private Result closeRemotely(Operation read) {
        var op = unrecorded.recordFoundOnGitLab(read, "closing");
        if (op.mergeRequest().isEmpty()) {
            if (op.binding().map(BindingStatus::isAwaitingApproval).orElse(false)) {
                withdrawQuietly(op.id());
            }
            return new Result.Closed();
        }
        var mr = op.mergeRequest().get();
        return switch (Settlement.afterReread(mergeRequests.closeAndReread(mr.project(), mr.iid()))) {
            case FAILED -> {
                if (op.binding().map(BindingStatus::isAwaitingApproval).orElse(false)) {
                    withdrawQuietly(op.id());
                }
                yield new Result.Closed();
            }
            case MERGED_WINS -> {
                changes.applyIfAllowed(op.id(), WorkflowEvent.MERGED, "Merge request !" + mr.iid()
                        + " was already merged when an operator closed the request: merged wins.");
                yield new Result.MergedWins();
            }
            case RETRY_LATER -> new Result.RetryLater("Merge request !" + mr.iid() + " is still open; try again shortly.");
        };
    }

    private void withdrawQuietly(OperationId id) {
        try {
            approvals.withdraw(id);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not withdraw the approval of " + id + "; a late decision is ignored as stale", e);
        }
    }
}
