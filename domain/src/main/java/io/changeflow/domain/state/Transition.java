package io.changeflow.domain.state;

import java.util.Optional;

/** The answer of the transition table for one event in one state: moved, or refused with a reason. */
public sealed interface Transition {

    WorkflowEvent event();

    /** The event is allowed: the operation goes to {@code step}; the binding to {@code binding} (may be unchanged). */
    record Moved(WorkflowEvent event, Optional<WorkflowState> from, StepStatus step, Optional<BindingStatus> binding)
            implements Transition {

        /** True when the binding layer changes (as opposed to a step-only move). */
        public boolean bindingChanged() {
            var before = from.flatMap(WorkflowState::binding);
            return !before.equals(binding);
        }

        /** The state after the move; an opening event sets the kind it opens, any other keeps the operation's. */
        public WorkflowState to() {
            var kind = Transitions.kindOpenedBy(event)
                    .orElseGet(() -> from.map(WorkflowState::kind).orElse(ChangeKind.GRANT));
            return new WorkflowState(step, binding, kind);
        }
    }

    /** The event is not allowed in this state. {@code from} is empty for a not-yet-existing operation. */
    record Refused(WorkflowEvent event, Optional<WorkflowState> from, String reason) implements Transition {}

    default boolean allowed() {
        return this instanceof Moved;
    }
}
