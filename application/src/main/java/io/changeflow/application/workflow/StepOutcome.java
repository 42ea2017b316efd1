package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.Step;
import java.time.Duration;
import java.util.Objects;

/**
 * What a workflow step asks the scheduler to do after one run. Waiting is expressed as a
 * rescheduling, never as a sleeping thread.
 */
public sealed interface StepOutcome {

    /** The step is finished: delete its task. The operation is in a terminal or explicitly waiting state. */
    record Done() implements StepOutcome {}

    /**
     * Run the same step (same kind and ref) again after {@code delay}, with {@code step}'s data:
     * the scheduler updates the current task in place.
     */
    record Reschedule(Step step, Duration delay) implements StepOutcome {
        public Reschedule {
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(delay, "delay");
        }
    }

    /**
     * This step is finished and {@code step} (another kind, same ref) follows after {@code delay}:
     * the scheduler schedules it, then deletes the current task.
     */
    record Next(Step step, Duration delay) implements StepOutcome {
        public Next {
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(delay, "delay");
        }
    }

    static StepOutcome done() {
        return new Done();
    }

    static StepOutcome again(Step step, Duration delay) {
        return new Reschedule(step, delay);
    }

    static StepOutcome next(Step step) {
        return new Next(step, Duration.ZERO);
    }
}
