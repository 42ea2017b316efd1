package io.changeflow.application.workflow;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.Step;
import java.util.Optional;

/** Progress markers of steps (see {@link StepBody#progress}). */
public final class Progress {

    private Progress() {
    }

    /**
     * The state of the request a step works on (both layers): it changes when the step advances it (e.g.
     * merge request opened, approved, rebasing), and not when a run repeats a write to the state it is already
     * in, so a run that keeps writing the same state and then failing is no progress.
     */
    public static Optional<String> ofRequest(Operations operations, Step step) {
        return operations.find(step.ref())
                .map(op -> op.binding().map(Enum::name).orElse("-") + "/" + op.step().name());
    }
}
