package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.Step;

/**
 * The body of one workflow step. It reads remote state before changing it (so any run may be a
 * re-run), writes the specific state of every failure it recognises, and returns how to continue.
 * Anything it throws is handled by the {@link WorkflowStep} safety net around it.
 */
@FunctionalInterface
public interface StepHandler {

    StepOutcome run(Step step);
}
