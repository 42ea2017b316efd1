package io.changeflow.application.submit;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.Set;

/**
 * Issue 37: a person's own request wins over a request someone else asked for them. When the subject-target row is
 * held by another requester's request for this subject that is not yet merging, that request is superseded
 * ({@link WorkflowEvent#SUPERSEDED_BY_SUBJECT}, pinned to the version read, so a step that moved it on meanwhile wins
 * and the subject is told what is under way): its pending approval is withdrawn (best effort: a late decision is
 * ignored as stale anyway), its merge request closed by the close step, and its requester finds a note saying why.
 * Once it is merging (or merged, in a batch, in effect) it is never taken back: the subject is told what is under way.
 * Design: docs/workflow.md, "Who may ask for whom".
 */
final class SubjectFirst {

    private static final System.Logger LOG = System.getLogger(SubjectFirst.class.getName());

    /** What happened to the request that held the row. */
    sealed interface Outcome {

        /** It was superseded: the row is free for the subject's own request. */
        record Superseded(Operation superseded) implements Outcome {}

        /** Another person's request for this subject is under way past the point where it can be taken back. */
        record UnderWay(Operation other) implements Outcome {}

        /** The row is held by the subject's own request, a removal, or one that could not be read: nothing to do. */
        record Held() implements Outcome {}
    }

    /** Creating its merge request, or that failed: GitLab may have opened one the request does not record. */
    private static final Set<BindingStatus> MAY_HAVE_OPENED_ONE = Set.copyOf(
            EnumSet.of(BindingStatus.MR_CREATING, BindingStatus.CREATE_FAILED));

    private final Operations operations;
    private final StateChanges changes;
    private final Approvals approvals;
    private final StepLauncher launcher;

    SubjectFirst(Operations operations, StateChanges changes, Approvals approvals, StepLauncher launcher) {
        this.operations = operations;
        this.changes = changes;
        this.approvals = approvals;
        this.launcher = launcher;
    }

    /** Makes way for {@code request} (a request by its own subject) on the row {@code held}, where it may. */
    Outcome makeWay(ChangeRequest request, Binding held) {
        if (!request.requester().equals(request.subject().value())) {
            return new Outcome.Held();
        }
        var found = operations.find(held.operationId());
        if (found.isEmpty() || found.get().kind().removes() || found.get().requester().equals(request.requester())) {
            return new Outcome.Held();
        }
        var other = found.get();
        if (!Transitions.check(other.state(), WorkflowEvent.SUPERSEDED_BY_SUBJECT).allowed()) {
            return new Outcome.UnderWay(other);
        }
        var note = new StepNote("Superseded: " + request.requester() + ", for whom " + other.requester() + " asked,"
                + " asked for this access themselves; their own request " + request.operationId().value()
                + " replaces this one. Nothing of it was merged: its approval is withdrawn and its merge request, if"
                + " any, closed.", request.requester());
        Operation superseded;
        try {
            superseded = changes.apply(other, WorkflowEvent.SUPERSEDED_BY_SUBJECT, note);
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            // a step moved it on meanwhile (e.g. to merging): what it is now decides
            return operations.find(other.id()).filter(Operation::ownsBinding).<Outcome>map(Outcome.UnderWay::new)
                    .orElseGet(Outcome.Held::new);
        }
        LOG.log(Level.INFO, () -> other.id() + ", asked by " + other.requester() + " for " + request.requester()
                + ", superseded by their own request " + request.operationId());
        if (Transitions.check(other.state(), WorkflowEvent.APPROVAL_WITHDRAWN).allowed()) {
            // its approver was still to decide (approval sent, or its merge request waiting for the decision)
            withdrawQuietly(other);
        }
        if (other.mergeRequest().isPresent() || other.binding().filter(MAY_HAVE_OPENED_ONE::contains).isPresent()) {
            // finding S8: a create step that failed (or is under way) may have opened one it did not record yet; the
            // close step looks it up by the request's branch
            launcher.launchOwedClose(other.id());
        }
        return new Outcome.Superseded(superseded);
    }

    private void withdrawQuietly(Operation other) {
        try {
            approvals.withdraw(other.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not withdraw the approval of superseded " + other.id()
                    + "; a late decision is ignored as stale", e);
        }
    }
}
