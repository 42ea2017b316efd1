package io.changeflow.application.grant;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The shared path of every removal of a grant in effect (expiry, give-up, revocation): open the removal
 * operation on the row read, then admit it to the removal round of its target's file (or, where removals
 * need the approval system, send it to the approver first). Design: docs/workflow.md.
 */
final class RemovalRounds {

    private static final System.Logger LOG = System.getLogger(RemovalRounds.class.getName());

    /** New removal operation IDs: random UUIDs. */
    static final Supplier<OperationId> RANDOM_IDS = () -> OperationId.of(UUID.randomUUID().toString());

    private final Operations operations;
    private final Batches batches;
    private final Targets targets;
    private final Supplier<OperationId> ids;
    private final StepLauncher launcher;

    RemovalRounds(Operations operations, Batches batches, Targets targets, StepLauncher launcher, Supplier<OperationId> ids) {
        this.operations = operations;
        this.batches = batches;
        this.targets = targets;
        this.launcher = launcher;
        this.ids = ids;
    }

    /** Whether a removal may ask for approval: the holder's own give-up never does. */
    enum Asking { BY_TARGET, NEVER }

    /**
     * Opens the removal of {@code read} ({@link WorkflowEvent#EXPIRY_DUE} or {@link WorkflowEvent#REVOCATION_REQUESTED},
     * or the event of the same kind that waits for the approver when the target asks for it and {@code asking} allows)
     * and admits it, or sends its approval.
     *
     * @return what the open did; empty when the row changed since it was read (a concurrent removal, renewal or
     *         re-application won: nothing was written)
     */
    Optional<Operations.OpenResult> open(Binding read, WorkflowEvent direct, Asking asking, String actor, String detail) {
        var event = asking == Asking.BY_TARGET && policyOf(read).asksApproval() ? forApproval(direct) : direct;
        Operations.OpenResult opened;
        try {
            opened = operations.openRemoval(read, ids.get(), event, actor, detail);
        } catch (PreemptedException e) {
            LOG.log(Level.INFO, () -> read.subject() + "/" + read.target() + " changed since it was read; not removed now ("
                    + e.getMessage() + ")");
            return Optional.empty();
        }
        if (opened instanceof Operations.OpenResult.Opened o) {
            if (o.operation().binding().equals(Optional.of(BindingStatus.APPROVAL_SENDING))) {
                // a lost launch is resumed like any send (the approval check and the stuck-request sweep)
                launcher.launch(o.operation().id(), StepKind.SUBMIT_APPROVAL, WorkflowEvent.APPROVAL_SUBMIT_FAILED);
            } else {
                admit(o.operation());
            }
        }
        return Optional.of(opened);
    }

    /** The target's removal setting; a target that left the catalog: none asked (the removal stays due). */
    private RemovalPolicy policyOf(Binding read) {
        return targets.find(read.target()).map(Target::removals).orElse(RemovalPolicy.NO_APPROVAL);
    }

    private static WorkflowEvent forApproval(WorkflowEvent direct) {
        return switch (direct) {
            case EXPIRY_DUE -> WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL;
            case REVOCATION_REQUESTED -> WorkflowEvent.REVOCATION_FOR_APPROVAL;
            default -> throw new IllegalArgumentException(direct + " does not open a removal");
        };
    }

    /**
     * Admits a removal to its file's removal round; idempotent (already waiting answers false). A target that left
     * the catalog cannot be admitted: the removal stays due and shows as overdue to the operators.
     */
    boolean admit(Operation removal) {
        var target = targets.find(removal.target());
        if (target.isEmpty()) {
            LOG.log(Level.WARNING, () -> "removal " + removal.id() + ": target " + removal.target()
                    + " is no longer in the catalog; it stays due for an operator");
            return false;
        }
        return batches.admit(removal.id(), target.get().removalPartition());
    }
}
