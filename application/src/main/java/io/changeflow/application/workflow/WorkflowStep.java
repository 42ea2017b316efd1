package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The safety net around one operation step (the design's {@code @WorkflowStep(onErrorStep,
 * onErrorStatus)} aspect, as a plain wrapper). Failures the step recognises are written by the step
 * with their specific state; here:
 * <ul>
 *   <li>a transient external failure (timeout, 5xx, 429, breaker open) re-runs the step later with
 *       exponential backoff, which is safe because every step reads remote state first; when the
 *       retries are used up it counts as unexpected;</li>
 *   <li>a lost race on a guarded write ({@link PreemptedException}) re-runs the step shortly, so it
 *       re-reads the state and decides again;</li>
 *   <li>any other exception writes the step's declared failure event ({@code onError}) if the table
 *       allows it from the current state, and ends the step: every exit leaves an explicit state;</li>
 *   <li>a {@link Error} is logged and rethrown without touching the database (the JVM may be in a
 *       bad state); the scheduler retries the task later and the timeout sweep is the last resort.</li>
 * </ul>
 * If writing the declared failure itself fails (e.g. the database is down), the exception escapes so
 * the scheduler keeps the task and retries it.
 */
public final class WorkflowStep {

    static final String TRANSIENT_FAILURES = "transientFailures";
    static final String PREEMPTIONS = "preemptions";
    static final int MAX_PREEMPTIONS = 5;
    static final Duration PREEMPTED_RETRY = Duration.ofSeconds(1);

    private static final System.Logger LOG = System.getLogger(WorkflowStep.class.getName());

    private final StepKind kind;
    private final WorkflowEvent onError;
    private final StepHandler handler;
    private final StateChanges changes;
    private final RetryPolicy transientRetry;

    /**
     * @param kind           the step kind this wraps
     * @param onError        the declared failure event for unexpected exceptions (e.g. HANDLE_ERROR)
     * @param handler        the step body
     * @param changes        where the declared failure is written
     * @param transientRetry how often and how far apart transient external failures are retried
     */
    public WorkflowStep(StepKind kind, WorkflowEvent onError, StepHandler handler, StateChanges changes,
                        RetryPolicy transientRetry) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.onError = Objects.requireNonNull(onError, "onError");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.transientRetry = Objects.requireNonNull(transientRetry, "transientRetry");
    }

    public StepKind kind() {
        return kind;
    }

    /** The event written when the step fails unexpectedly. */
    public WorkflowEvent onError() {
        return onError;
    }

    public StepOutcome run(Step step) {
        try {
            return handler.run(step);
        } catch (ExternalCallException e) {
            if (e.isTransient()) {
                var failures = step.intValue(TRANSIENT_FAILURES, 0) + 1;
                var delay = transientRetry.afterFailure(failures);
                if (delay.isPresent()) {
                    LOG.log(Level.WARNING, () -> step.instanceId() + " hit a transient " + e.system()
                            + " failure (" + e.kind() + " " + e.status() + "); retry " + failures + " in " + delay.get());
                    return StepOutcome.again(step.nextAttempt().with(TRANSIENT_FAILURES, failures), delay.get());
                }
            }
            return fail(step, e);
        } catch (PreemptedException e) {
            var preemptions = step.intValue(PREEMPTIONS, 0) + 1;
            if (preemptions <= MAX_PREEMPTIONS) {
                LOG.log(Level.INFO, () -> step.instanceId() + " lost a race on a state write; re-reading");
                return StepOutcome.again(step.nextAttempt().with(PREEMPTIONS, preemptions), PREEMPTED_RETRY);
            }
            return fail(step, e);
        } catch (RuntimeException e) {
            return fail(step, e);
        } catch (Error e) {
            LOG.log(Level.ERROR, "[CRITICAL] JVM-level error in " + step.instanceId() + "; nothing written", e);
            throw e;
        }
    }

    private StepOutcome fail(Step step, RuntimeException cause) {
        LOG.log(Level.ERROR, "step " + step.instanceId() + " failed unexpectedly; writing " + onError, cause);
        var id = OperationId.parse(step.ref());
        if (id.isEmpty()) {
            return StepOutcome.done();
        }
        try {
            var written = changes.applyIfAllowed(id.get(), onError,
                    "The " + kind.name().toLowerCase(Locale.ROOT).replace('_', ' ')
                            + " step stopped on an unexpected error; an operator can re-trigger it.");
            if (written.isEmpty()) {
                LOG.log(Level.INFO, () -> onError + " not allowed any more for " + id.get() + "; the state moved on");
            }
        } catch (RuntimeException writeFailure) {
            writeFailure.addSuppressed(cause);
            throw writeFailure;
        }
        return StepOutcome.done();
    }
}
