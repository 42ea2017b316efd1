package io.changeflow.domain.state;

import java.util.Objects;
import java.util.Optional;

/**
 * The two state layers of one operation as read together: its step and, while the operation still
 * owns its subject-target row, the binding status. {@code binding} is empty once a re-application
 * replaced this operation as the row's owner; only step-only events still apply then. {@code kind}: what the
 * operation changes (a grant, or the removal of one), fixed when it was opened.
 */
public record WorkflowState(StepStatus step, Optional<BindingStatus> binding, ChangeKind kind) {

    public WorkflowState {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(kind, "kind");
    }

    /** A grant's state. */
    public static WorkflowState of(StepStatus step, BindingStatus binding) {
        return of(step, binding, ChangeKind.GRANT);
    }

    public static WorkflowState of(StepStatus step, BindingStatus binding, ChangeKind kind) {
        return new WorkflowState(step, Optional.of(binding), kind);
    }

    public static WorkflowState detached(StepStatus step) {
        return new WorkflowState(step, Optional.empty(), ChangeKind.GRANT);
    }

    @Override
    public String toString() {
        var text = step + "/" + binding.map(Enum::name).orElse("(replaced)");
        return kind == ChangeKind.GRANT ? text : text + " (" + kind + ")";
    }
}
