package io.changeflow.application.batch;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.workflow.AuditedOperatorAction;
import io.changeflow.application.workflow.OperatorCommand;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.util.Map;

/**
 * An operator sends a failed batch member (the culprit bisection isolated, or a member of a batch
 * that gave up) back to the waiting set: BATCH_READMITTED, then admission into its partition's waiting
 * set, where a later round claims it like a fresh request (e.g. after the maintainers fixed what made
 * its pipeline fail). Admission is idempotent; should it fail after the state write, the stuck-request
 * sweep admits the waiting request again. A removal of a grant (expiry, give-up, revocation) goes back to its
 * file's removal round whether or not its target is batchable (issue 36). Recorded in the audit log.
 */
public final class ReadmitBatchMember {

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

        /** The request is not a failed batch member (or its target left the catalog). */
        record NotAllowed(String reason) implements Result {}

        /** Back in the waiting set of {@code partition}. */
        record Readmitted(OperationId operationId, String partition) implements Result {}
    }

    /** The audit action. */
    static final String ACTION = "READMIT";

    private final Targets targets;
    private final Batches batches;
    private final StateChanges changes;
    private final AuditedOperatorAction action;

    public ReadmitBatchMember(Operations operations, Targets targets, Batches batches, StateChanges changes, AuditLog audit,
                              Clock clock) {
        this.targets = targets;
        this.batches = batches;
        this.changes = changes;
        this.action = new AuditedOperatorAction(operations, audit, clock, ACTION);
    }

    public Result readmit(Command command) {
        return action.run(command, Result.NotFound::new, op -> {
            var target = targets.find(op.target());
            if (Transitions.check(op.state(), WorkflowEvent.BATCH_READMITTED) instanceof Transition.Refused refused) {
                return new Result.NotAllowed("Only a failed batch member can be readmitted; the request is " + op.state()
                        + ": " + refused.reason() + ".");
            }
            if (target.isEmpty()) {
                return new Result.NotAllowed("The target " + op.target() + " is no longer in the catalog" + (op.kind().removes()
                        ? ": put it back and re-trigger the removal, or close the removal (it ends with the grant kept,"
                                + " nothing removed)." : "."));
            }
            // a removal goes back to its file's removal round on any target (issue 36); a grant needs a batchable one
            if (!op.kind().removes() && !target.get().batchable()) {
                return new Result.NotAllowed("The target " + op.target() + " is no longer batchable in the catalog.");
            }
            if (changes.applyIfAllowed(op.id(), WorkflowEvent.BATCH_READMITTED, new StepNote(
                    "Sent back to the waiting set by an operator; a later batch round merges it.", command.operator())).isEmpty()) {
                return new Result.NotAllowed("The request changed meanwhile; look at it again.");
            }
            var partition = target.get().partitionOf(op.kind());
            batches.admit(op.id(), partition);
            return new Result.Readmitted(op.id(), partition);
        });
    }
}
