package io.changeflow.domain.state;

import java.util.Objects;
import java.util.Optional;

/**
 * The two state layers of one operation as read together: its step and, while the operation still
 * owns its subject-target row, the binding status. {@code binding} is empty once a re-application
 * replaced this operation as the row's owner; only step-only events still apply then.
 */
public record WorkflowState(StepStatus step, Optional<BindingStatus> binding) {

    public WorkflowState {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(binding, "binding");
    }

    public static WorkflowState of(StepStatus step, BindingStatus binding) {
        return new WorkflowState(step, Optional.of(binding));
    }

    public static WorkflowState detached(StepStatus step) {
        return new WorkflowState(step, Optional.empty());
    }

    @Override
    public String toString() {
        return step + "/" + binding.map(Enum::name).orElse("(replaced)");
    }
}
