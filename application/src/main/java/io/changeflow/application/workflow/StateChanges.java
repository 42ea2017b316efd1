package io.changeflow.application.workflow;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Optional;

/**
 * The workflow's state writes: both layers through {@link Operations} (which consults the
 * transition table and guards the write), plus the "failed" business metric, emitted after the
 * write and only when the write moved the request into a failure state.
 */
public final class StateChanges {

    private final Operations operations;
    private final BusinessMetrics metrics;

    public StateChanges(Operations operations, BusinessMetrics metrics) {
        this.operations = operations;
        this.metrics = metrics;
    }

    /**
     * Applies {@code event} to {@code current} if nobody changed it since it was read (its version).
     *
     * @throws io.changeflow.domain.PreemptedException                 it changed: re-read and decide again
     * @throws io.changeflow.domain.state.IllegalTransitionException the table refuses the event
     */
    public Operation apply(Operation current, WorkflowEvent event, String detail) {
        return apply(current, event, StepNote.system(detail));
    }

    /** Like {@link #apply(Operation, WorkflowEvent, String)}, with who caused it (e.g. an operator). */
    public Operation apply(Operation current, WorkflowEvent event, StepNote note) {
        var after = operations.apply(current.id(), current.version(), event, note);
        countFailure(event, after);
        return after;
    }

    /** Applies {@code event} to the current state if the table allows it there; empty when not (nothing written). */
    public Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note) {
        var after = operations.applyIfAllowed(id, event, note);
        after.ifPresent(op -> countFailure(event, op));
        return after;
    }

    public Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, String detail) {
        return applyIfAllowed(id, event, StepNote.system(detail));
    }

    private void countFailure(WorkflowEvent event, Operation after) {
        if (Transitions.rule(event).toBinding().filter(BindingStatus::isFailed).isPresent()) {
            Emit.quietly("failed", () -> metrics.failed(after.step()));
        }
    }
}
