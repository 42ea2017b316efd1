package io.changeflow.application.reconcile;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.workflow.Emit;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one advancing method to "in effect" (design 3.7's markValidated), shared by the deploy
 * callback and reconciliation: {@link Operations#applyIfAllowed} with DEPLOYED flips MERGED to
 * VALIDATED under row locks, so of two racing paths exactly one gets a non-empty answer. The
 * "validated" metric is emitted only then, after the write committed: never twice, never for a
 * rolled-back write.
 */
public final class MarkDeployed {

    private final Operations operations;
    private final BusinessMetrics metrics;

    public MarkDeployed(Operations operations, BusinessMetrics metrics) {
        this.operations = operations;
        this.metrics = metrics;
    }

    /** @return the operation when this call flipped it to VALIDATED; empty when it did not (already done, not merged, unknown) */
    public Optional<Operation> markDeployed(OperationId id, StepNote note) {
        return operations.applyIfAllowed(id, WorkflowEvent.DEPLOYED, note).map(this::counted);
    }

    /**
     * The same, pinned to the version a decision was made on (reconciliation reads, decides, then writes):
     * the write happens only if the operation is still at {@code version}, so a request that moved on meanwhile
     * (validated by its callback, marked failed, re-applied) is never overwritten; that lost race is an empty
     * answer, "moved on, skip".
     *
     * @return the operation when this call flipped it to VALIDATED; empty when it changed since it was read or
     *         the table does not allow DEPLOYED where it is
     */
    public Optional<Operation> markDeployed(Operation read, StepNote note) {
        try {
            return Optional.of(counted(operations.apply(read.id(), read.version(), WorkflowEvent.DEPLOYED, note)));
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            return Optional.empty();
        }
    }

    /**
     * {@link #markDeployed(Operation, StepNote)} for many operations at once (reconciliation's page): each write is
     * pinned to the version its operation was read at, one that moved on is skipped; the adapter writes them in
     * chunks ({@link Operations#applyAllPinned}). The metric is emitted once per operation flipped, after commit.
     *
     * @return the operations (as read) this call flipped to VALIDATED
     */
    public List<Operation> markDeployed(List<Operations.Pinned> reads) {
        var flipped = Set.copyOf(operations.applyAllPinned(reads, WorkflowEvent.DEPLOYED));
        var result = new ArrayList<Operation>(flipped.size());
        for (var pinned : reads) {
            if (flipped.contains(pinned.read().id())) {
                result.add(pinned.read());
                counted(pinned.read());
            }
        }
        return result;
    }

    private Operation counted(Operation flipped) {
        Emit.quietly("validated", () -> metrics.validated(flipped.target().value()));
        return flipped;
    }
}
