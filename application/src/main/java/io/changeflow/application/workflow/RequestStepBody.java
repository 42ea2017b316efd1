package io.changeflow.application.workflow;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.domain.operation.Operation;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;

/**
 * A step body over the one request its step's ref names: its progress marker is the request's state
 * ({@link Progress#ofRequest}), and it runs on that request as read now, or is done when there is none
 * ({@link StepBody#onOperation}).
 */
public abstract class RequestStepBody implements StepBody {

    protected final Operations operations;

    private final System.Logger log;
    private final String name;

    /**
     * @param log  the step's own logger, which its other lines use too
     * @param name the step as its log lines name it, e.g. "create step"
     */
    protected RequestStepBody(Operations operations, System.Logger log, String name) {
        this.operations = Objects.requireNonNull(operations, "operations");
        this.log = Objects.requireNonNull(log, "log");
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The request's state (see {@link Progress#ofRequest}). */
    @Override
    public final Optional<String> progress(Step step) {
        return Progress.ofRequest(operations, step);
    }

    @Override
    public final StepOutcome run(Step step) {
        return StepBody.onOperation(step, operations, log, name, op -> run(op, step));
    }

    /** Runs {@code step} on {@code op}, the request its ref names, as read at the start of this run. */
    protected abstract StepOutcome run(Operation op, Step step);

    /** Done: the request's state ({@code op}) asks nothing of this step. */
    protected final StepOutcome nothingToDo(Operation op) {
        log.log(Level.INFO, () -> name + " for " + op.id() + " has nothing to do at " + op.state());
        return StepOutcome.done();
    }
}
