package io.changeflow.application.grant;

import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Issue 36: a renewal no approver said yes to by the until of the grant it renews is ended (its approval withdrawn,
 * or, not yet sent for approval, closed with its merge request), so the row goes back to the renewed grant and the
 * expiry job removes its line in the same run. Nobody keeps access past its until without an approved later until.
 * Design: docs/workflow.md, "The access invariant".
 */
final class EndUndecidedRenewals {

    private static final System.Logger LOG = System.getLogger(EndUndecidedRenewals.class.getName());

    /** The actor of the close written for a renewal that was never sent for approval. */
    static final String ACTOR = "system";

    /** A create-first renewal before its approval is asked for. */
    private static final Set<BindingStatus> CREATE_FIRST_UNDECIDED = Set.copyOf(EnumSet.of(BindingStatus.MR_CREATING,
            BindingStatus.MR_CREATED, BindingStatus.CREATE_FAILED));

    /** Where a renewal may still wait for its decision: sending, sent, failed to send; before it, for create-first. */
    private static final Set<BindingStatus> UNDECIDED = Set.copyOf(Stream.concat(ReconcileApprovals.CHECKED.stream(),
            CREATE_FIRST_UNDECIDED.stream()).toList());

    private final Operations operations;
    private final ReconcileApprovals approvalCheck;
    private final CloseChangeRequest close;

    EndUndecidedRenewals(Operations operations, ReconcileApprovals approvalCheck, CloseChangeRequest close) {
        this.operations = operations;
        this.approvalCheck = approvalCheck;
        this.close = close;
    }

    /**
     * Ends the undecided renewals whose renewed grant's until passed by the database clock (no grace: a renewal is
     * not cut short before that until).
     *
     * @return how many renewals ended (by the approval system's decision found now, withdrawn or closed)
     */
    int run(int limit) {
        var ended = 0;
        for (var renewal : operations.renewalsPastRenewedExpiry(UNDECIDED, Duration.ZERO, limit)) {
            if (undecided(renewal) && end(renewal)) {
                ended++;
            }
        }
        return ended;
    }

    /** Approved already: a create-first renewal's merge request before its approval is asked for is not. */
    private static boolean undecided(Operation renewal) {
        var status = renewal.binding().orElseThrow();
        return ReconcileApprovals.CHECKED.contains(status) || renewal.order() == StepOrder.CREATE_FIRST
                && CREATE_FIRST_UNDECIDED.contains(status);
    }

    private boolean end(Operation renewal) {
        try {
            switch (approvalCheck.checkNow(renewal)) {
                case DECIDED, WITHDRAWN -> {
                    return true;
                }
                case RESUBMITTED, WAITING -> {
                    // not yet past its deadline by this clock: the next run looks again
                    return false;
                }
                case SKIPPED -> {
                    // not waiting on the approval system: never sent, or a create-first one before its approval
                }
            }
        } catch (ExternalCallException e) {
            // the approval system cannot say whether an approver said yes: the next run asks again
            LOG.log(Level.WARNING, () -> "renewal " + renewal.id() + " past the renewed grant's until: the approval "
                    + "system could not be asked (" + e.kind() + "); the next expiry run tries again");
            return false;
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            // it changed while it was looked at: the next run reads it again
            return false;
        }
        var current = operations.find(renewal.id());
        if (current.isEmpty() || !current.get().binding().map(UNDECIDED::contains).orElse(false)) {
            return true;
        }
        var result = close.close(new CloseChangeRequest.Command(renewal.id().value(), ACTOR,
                Map.of("reason", "renewal undecided at the until of the grant it renews")));
        LOG.log(Level.INFO, () -> "renewal " + renewal.id() + " undecided at the renewed grant's until: " + result);
        return result instanceof CloseChangeRequest.Result.Closed;
    }
}
