package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;

/**
 * The entry point of durable execution: the scheduler adapter calls {@link #run} with a due task's
 * step and applies the returned {@link StepOutcome} to that task (see {@code WorkQueue}). Any
 * instance may run any step; a step of a crashed instance is simply run again elsewhere, which is
 * safe because every step reads remote state before acting.
 */
public final class RunDueStep {

    private final Map<StepKind, StepSafetyNet> steps = new EnumMap<>(StepKind.class);

    public RunDueStep(Collection<StepSafetyNet> steps) {
        for (var step : steps) {
            if (this.steps.putIfAbsent(step.kind(), step) != null) {
                throw new IllegalArgumentException("two steps registered for " + step.kind());
            }
        }
    }

    /**
     * Runs one step.
     *
     * @throws IllegalStateException no step of this kind is registered (the task stays and is retried)
     * @throws Error                 JVM-level errors, after logging, without any state write
     */
    public StepOutcome run(Step step) {
        var safetyNet = steps.get(step.kind());
        if (safetyNet == null) {
            throw new IllegalStateException("no step registered for " + step.kind());
        }
        var outcome = safetyNet.run(step);
        switch (outcome) {
            case StepOutcome.Reschedule again when again.step().kind() != step.kind() || !again.step().ref().equals(step.ref()) ->
                    throw new IllegalStateException("a reschedule keeps kind and ref: " + again.step().instanceId());
            case StepOutcome.Next next when !next.step().ref().equals(step.ref()) || next.step().kind() == step.kind() ->
                    throw new IllegalStateException("a next step has the same ref and another kind: " + next.step().instanceId());
            default -> {
            }
        }
        return outcome;
    }
}
