package io.changeflow.application.deploy;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.util.Optional;

/**
 * An operator confirms that a merged change is in effect (live though no deploy report said so, or after a failed
 * rollout was fixed by hand): MERGED, DEPLOY_UNCONFIRMED or DEPLOY_FAILED become VALIDATED through {@link MarkDeployed},
 * pinned to the version read, so of a racing confirm and report exactly one flips it. Audited.
 */
public final class ConfirmDeployed {

    /** The audit action. */
    public static final String ACTION = "CONFIRM_DEPLOYED";

    /** The answer. */
    public sealed interface Result {
        record NotFound() implements Result {}

        /** It is in effect already (a report, reconciliation or another confirm came first): nothing changed. */
        record AlreadyInEffect() implements Result {}

        /** Not merged (or no longer the relationship's current request): nothing to confirm. */
        record NotAllowed(String reason) implements Result {}

        /** This call made it in effect: {@code status} VALIDATED, or EXPIRED / REVOKED for the removal of a grant. */
        record Confirmed(OperationId operationId, BindingStatus status) implements Result {

            /** A grant confirmed in effect. */
            public Confirmed(OperationId operationId) {
                this(operationId, BindingStatus.VALIDATED);
            }
        }
    }

    private final MarkDeployed markDeployed;
    private final DeployAction action;

    public ConfirmDeployed(Operations operations, MarkDeployed markDeployed, AuditLog audit, Clock clock) {
        this.markDeployed = markDeployed;
        this.action = new DeployAction(WorkflowEvent.DEPLOYED, ACTION, operations, audit, clock);
    }

    /**
     * Whether an operator may confirm a request whose binding status is {@code status} (offered by the console); a
     * request replaced by a newer one (no binding status) may not.
     */
    public static boolean allowedFrom(BindingStatus status) {
        return DeployAction.allowedFrom(WorkflowEvent.DEPLOYED, status);
    }

    public Result confirm(DeployActionCommand command) {
        return action.run(command, Result.NotFound::new, op -> {
            // in effect: VALIDATED for a grant; EXPIRED or REVOKED for the removal of one (issue 18)
            var inEffect = Transitions.inEffect(op.kind());
            if (op.binding().equals(Optional.of(inEffect))) {
                return new Result.AlreadyInEffect();
            }
            if (!action.allows(op)) {
                return new Result.NotAllowed("Only a merged request can be confirmed in effect; this one is "
                        + DeployAction.describe(op) + ".");
            }
            var note = new StepNote("In effect: confirmed by an operator.", command.operator());
            // pinned to the version the decision was made on: a request that moved on meanwhile is not overwritten
            return markDeployed.markDeployed(op, note).isPresent() ? new Result.Confirmed(op.id(), inEffect)
                    : afterLostRace(op, inEffect);
        });
    }

    /** The flip did not happen here: someone else got there first, or it moved out of the merged states. */
    private Result afterLostRace(Operation op, BindingStatus inEffect) {
        return action.now(op).binding().equals(Optional.of(inEffect))
                ? new Result.AlreadyInEffect()
                : new Result.NotAllowed("The request changed meanwhile; look at it again.");
    }
}
