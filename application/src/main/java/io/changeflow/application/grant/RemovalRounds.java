package io.changeflow.application.grant;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The shared path of every removal of a grant in effect (expiry, give-up, revocation): open the removal operation
 * on the row read (it takes the row over in place, pinned to what was read), then admit it to the removal round
 * of its target's file ({@link io.changeflow.domain.request.Target#removalPartition()}), where the batch
 * machinery takes every line due of that file into one merge request per round, through the same pipeline, bot
 * approval, merge and deploy confirmation as any change. No approval is asked for a removal.
 */
final class RemovalRounds {

    private static final System.Logger LOG = System.getLogger(RemovalRounds.class.getName());

    /** New removal operation IDs: random UUIDs. */
    static final Supplier<OperationId> RANDOM_IDS = () -> OperationId.of(UUID.randomUUID().toString());

    private final Operations operations;
    private final Batches batches;
    private final Targets targets;
    private final Supplier<OperationId> ids;

    RemovalRounds(Operations operations, Batches batches, Targets targets, Supplier<OperationId> ids) {
        this.operations = operations;
        this.batches = batches;
        this.targets = targets;
        this.ids = ids;
    }

    /**
     * Opens the removal of {@code read} and admits it.
     *
     * @return what the open did; empty when the row changed since it was read (a concurrent removal, renewal or
     *         re-application won: nothing was written)
     */
    Optional<Operations.OpenResult> open(Binding read, WorkflowEvent event, String actor, String detail) {
        Operations.OpenResult opened;
        try {
            opened = operations.openRemoval(read, ids.get(), event, actor, detail);
        } catch (PreemptedException e) {
            LOG.log(Level.INFO, () -> read.subject() + "/" + read.target() + " changed since it was read; not removed now ("
                    + e.getMessage() + ")");
            return Optional.empty();
        }
        if (opened instanceof Operations.OpenResult.Opened o) {
            admit(o.operation());
        }
        return Optional.of(opened);
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
