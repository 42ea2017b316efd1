package io.changeflow.application.workflow;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.domain.operation.Operation;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.function.Function;

/**
 * The body of one workflow step. It reads remote state before changing it (so any run may be a
 * re-run), writes the specific state of every failure it recognises, and returns how to continue.
 * Anything it throws is handled by the {@link StepSafetyNet} safety net around it.
 */
@FunctionalInterface
public interface StepBody {

    StepOutcome run(Step step);

    /**
     * A marker of how far the step's subject has come, e.g. the version of the request's state (it grows
     * with every state write). {@link StepSafetyNet} reads it after a transient failure and keeps it in the
     * step's data: when it differs from the marker kept at the previous transient failure, the step made
     * progress in between and its transient retry count starts again. May read the database; a marker that
     * cannot be read counts as none.
     *
     * @return empty (the default) when the step has no such marker: only completed runs then count as progress
     */
    default Optional<String> progress(Step step) {
        return Optional.empty();
    }

    /**
     * Runs {@code body} on the operation the step's ref names. When there is none (the ref is no operation ID,
     * or no operation has it), logs a warning on {@code log} naming the step ({@code name}, e.g. "create step")
     * and is done: there is nothing to work on, and a retry would find nothing either.
     */
    static StepOutcome onOperation(Step step, Operations operations, System.Logger log, String name,
                                   Function<Operation, StepOutcome> body) {
        var found = operations.find(step.ref());
        if (found.isEmpty()) {
            log.log(Level.WARNING, () -> "no operation " + step.ref() + " for the " + name);
            return StepOutcome.done();
        }
        return body.apply(found.get());
    }
}
