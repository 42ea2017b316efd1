package io.changeflow.application.deploy;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.util.Optional;

/**
 * An operator marks the rollout of a merged change as failed (MERGED or DEPLOY_UNCONFIRMED become
 * DEPLOY_FAILED, hint CONTACT_MAINTAINERS), through the table, pinned to the version read (a request that moved
 * on between the read and the write, e.g. confirmed by a report, is answered as it is now); a later success report
 * or an operator's "confirm in effect" still makes it VALIDATED. Counted in the failure metric and
 * recorded in the audit log.
 */
public final class MarkDeployFailed {

    /** The audit action. */
    public static final String ACTION = "MARK_DEPLOY_FAILED";

    /** The answer. */
    public sealed interface Result {
        record NotFound() implements Result {}

        /** It is marked failed already: nothing changed. */
        record AlreadyFailed() implements Result {}

        /** Not merged-and-unconfirmed (e.g. in effect already, or not merged yet): nothing changed. */
        record NotAllowed(String reason) implements Result {}

        /** This call marked it DEPLOY_FAILED. */
        record Marked(OperationId operationId) implements Result {}
    }

    private final StateChanges changes;
    private final DeployAction action;

    public MarkDeployFailed(Operations operations, StateChanges changes, AuditLog audit, Clock clock) {
        this.changes = changes;
        this.action = new DeployAction(WorkflowEvent.DEPLOY_MARKED_FAILED, ACTION, operations, audit, clock);
    }

    /**
     * Whether an operator may mark the deploy failed of a request whose binding status is {@code status} (offered by
     * the console); a request replaced by a newer one (no binding status) may not.
     */
    public static boolean allowedFrom(BindingStatus status) {
        return DeployAction.allowedFrom(WorkflowEvent.DEPLOY_MARKED_FAILED, status);
    }

    public Result mark(DeployActionCommand command) {
        return action.run(command, Result.NotFound::new, op -> {
            if (!action.allows(op)) {
                return notAllowed(op);
            }
            var note = new StepNote("Deploy failed: marked by an operator; the change is not live.", command.operator());
            try {
                // pinned to the version the decision was made on: a request that moved on meanwhile is not overwritten
                return new Result.Marked(changes.apply(op, WorkflowEvent.DEPLOY_MARKED_FAILED, note).id());
            } catch (PreemptedException | IllegalTransitionException movedOn) {
                var now = action.now(op);
                return action.allows(now) && !now.binding().equals(Optional.of(BindingStatus.DEPLOY_FAILED))
                        ? new Result.NotAllowed("The request changed meanwhile (it is " + DeployAction.describe(now)
                                + " now); look at it again.")
                        : notAllowed(now);
            }
        });
    }

    private static Result notAllowed(Operation op) {
        if (op.binding().equals(Optional.of(BindingStatus.DEPLOY_FAILED))) {
            return new Result.AlreadyFailed();
        }
        return new Result.NotAllowed("Only a merged request that is not confirmed in effect can be marked failed; this one is "
                + DeployAction.describe(op) + ".");
    }
}
