package io.changeflow.application.workflow;

import io.changeflow.application.port.out.DatabaseUnavailable;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.PushRefused;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The safety net around one step's {@link StepBody} (the design's {@code @WorkflowStep(onErrorStep, onErrorStatus)}
 * aspect as a plain wrapper): transient external failures are retried with backoff ({@link TransientRetries}), a lost
 * race re-runs the step, a database that does not answer re-runs it later, an interruption or a JVM error is rethrown
 * without a write, and any other exception writes the
 * step's declared failure (or its {@link OnFailure}). Every exit leaves an explicit state; the rules: docs/workflow.md,
 * "The step safety net".
 */
public final class StepSafetyNet {

    static final String TRANSIENT_FAILURES = "transientFailures";
    /** The step's progress marker when it last failed transiently. */
    static final String PROGRESS = "transientProgress";
    /** When the current stretch of transient failures started (ISO instant). */
    static final String SINCE = "transientSince";
    /** Which system failed transiently last (e.g. {@code gitlab}). */
    static final String SYSTEM = "transientSystem";
    static final String PREEMPTIONS = "preemptions";
    static final int MAX_PREEMPTIONS = 5;
    static final Duration PREEMPTED_RETRY = Duration.ofSeconds(1);
    /** Reschedules after a rate limit (the system said when to come back), not counted as transient failures. */
    static final String RATE_LIMITED = "rateLimited";
    static final int MAX_RATE_LIMITED = 100;
    /** The shortest wait after a rate limit, whatever the system said: never a tight loop. */
    static final Duration MIN_RATE_LIMIT_WAIT = Duration.ofSeconds(1);
    /** The longest wait after a rate limit: a garbled or huge Retry-After does not park a step for hours. */
    static final Duration MAX_RATE_LIMIT_WAIT = Duration.ofMinutes(10);
    /** The random part added to a rate-limit wait, per refusal in a row, as a share of the wait asked for. */
    static final double RATE_LIMIT_SPREAD = 1.0;
    /** The random part grows with refusals in a row up to this many times {@link #RATE_LIMIT_SPREAD}. */
    static final int MAX_SPREAD_FACTOR = 4;

    /** Runs in a row that found the database unavailable (issue 34). */
    static final String DATABASE_UNAVAILABLE = "databaseUnavailable";
    /** The longest wait between runs of a step while the database does not answer (before the random part). */
    static final Duration MAX_DATABASE_WAIT = Duration.ofSeconds(30);

    private static final System.Logger LOG = System.getLogger(StepSafetyNet.class.getName());

    /**
     * How a step ends after an unexpected failure (or after its transient retries are used up): it
     * writes what the failure means and answers how to continue. Whatever it throws escapes, so the
     * scheduler keeps the task and retries it.
     */
    @FunctionalInterface
    public interface OnFailure {
        StepOutcome failed(Step step, RuntimeException cause);
    }

    private final StepKind kind;
    private final Optional<WorkflowEvent> onError;
    private final StepBody handler;
    private final OnFailure onFailure;
    private final TransientRetries transientRetry;
    private final Optional<WorkflowEvent> gaveUp;
    private final Optional<StateChanges> changes;

    /**
     * @param kind           the step kind this wraps
     * @param onError        the declared failure event for unexpected exceptions (e.g. HANDLE_ERROR)
     * @param handler        the step body
     * @param changes        where the declared failure is written
     * @param transientRetry how often and how far apart transient external failures are retried
     */
    public StepSafetyNet(StepKind kind, WorkflowEvent onError, StepBody handler, StateChanges changes,
                        TransientRetries transientRetry) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.onError = Optional.of(Objects.requireNonNull(onError, "onError"));
        this.handler = Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(changes, "changes");
        this.onFailure = (step, cause) -> writeDeclaredFailure(kind, onError, changes, step, cause);
        this.transientRetry = Objects.requireNonNull(transientRetry, "transientRetry");
        this.gaveUp = TransientRetries.gaveUpEvent(kind);
        this.changes = Optional.of(changes);
    }

    /**
     * Without a deadline: exactly {@code transientRetry.maxRetries()} retries, then the declared failure (see
     * {@link TransientRetries#counted}); production wires the deadline variant.
     */
    public StepSafetyNet(StepKind kind, WorkflowEvent onError, StepBody handler, StateChanges changes,
                        RetryPolicy transientRetry) {
        this(kind, onError, handler, changes, TransientRetries.counted(transientRetry));
    }

    /**
     * A step whose ref is not an operation (e.g. a batch): the same retries of transient failures and
     * lost races, and {@code onFailure} instead of a declared failure event.
     *
     * @param kind           the step kind this wraps
     * @param handler        the step body
     * @param onFailure      how the step ends after an unexpected failure or used-up retries
     * @param transientRetry how often and how far apart transient external failures are retried
     */
    public StepSafetyNet(StepKind kind, StepBody handler, OnFailure onFailure, TransientRetries transientRetry) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.onError = Optional.empty();
        this.handler = Objects.requireNonNull(handler, "handler");
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
        this.transientRetry = Objects.requireNonNull(transientRetry, "transientRetry");
        this.gaveUp = Optional.empty();
        this.changes = Optional.empty();
    }

    /** Without a deadline: exactly {@code transientRetry.maxRetries()} retries (see {@link TransientRetries#counted}). */
    public StepSafetyNet(StepKind kind, StepBody handler, OnFailure onFailure, RetryPolicy transientRetry) {
        this(kind, handler, onFailure, TransientRetries.counted(transientRetry));
    }

    public StepKind kind() {
        return kind;
    }

    /** The event written when the step fails unexpectedly; empty for a step with its own {@link OnFailure}. */
    public Optional<WorkflowEvent> onError() {
        return onError;
    }

    /**
     * The transient failures a scheduled step is being retried after (for showing a person), or empty when its
     * last run did not fail transiently.
     */
    public static Optional<Retrying> retrying(Step step) {
        try {
            return step.value(SINCE).map(Instant::parse)
                    .map(since -> new Retrying(step.value(SYSTEM).orElse("an external system"), since,
                            step.intValue(TRANSIENT_FAILURES, 1)));
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }

    /**
     * A step retried after transient failures.
     *
     * @param system   the system that failed last, e.g. {@code gitlab}
     * @param since    when the stretch of failures started (the transient deadline counts from here)
     * @param failures failures in the stretch so far
     */
    public record Retrying(String system, Instant since, int failures) {}

    public StepOutcome run(Step step) {
        try {
            return afterCompletedRun(handler.run(step));
        } catch (RuntimeException e) {
            if (interrupted(e)) {
                Thread.currentThread().interrupt();
                LOG.log(Level.INFO, () -> step.instanceId() + " was interrupted (" + e.getClass().getSimpleName()
                        + "); nothing written, the scheduler runs it again later");
                throw e;
            }
            return afterFailure(step, e);
        } catch (Error e) {
            LOG.log(Level.ERROR, "[CRITICAL] JVM-level error in " + step.instanceId() + "; nothing written", e);
            throw e;
        }
    }

    /**
     * Whether {@code failure} means the step was interrupted rather than failed: the thread's interrupt
     * flag is set, or an interruption is somewhere in the cause chain (clients wrap it, e.g. an
     * {@link ExternalCallException} of kind IO around an {@link InterruptedIOException}).
     */
    static boolean interrupted(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        for (var t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof InterruptedIOException
                    || t instanceof ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    private StepOutcome afterFailure(Step step, RuntimeException failure) {
        return switch (failure) {
            case ExternalCallException e when e.isTransient() && e.retryAfter().isPresent()
                    && step.intValue(RATE_LIMITED, 0) < MAX_RATE_LIMITED -> afterRateLimit(step, e, e.retryAfter().get());
            case ExternalCallException e when e.isTransient() -> afterTransientFailure(step, e);
            case PreemptedException e -> afterPreemption(step, e);
            case RuntimeException e when DatabaseUnavailable.in(e) -> afterDatabaseUnavailable(step, e);
            default -> fail(step, failure);
        };
    }

    /** A run that completed made progress: the next transient failure starts a new count. */
    private static StepOutcome afterCompletedRun(StepOutcome outcome) {
        if (outcome instanceof StepOutcome.Reschedule again && again.step().value(DATABASE_UNAVAILABLE).isPresent()) {
            return afterCompletedRun(StepOutcome.again(again.step().without(DATABASE_UNAVAILABLE), again.delay()));
        }
        if (outcome instanceof StepOutcome.Reschedule again && again.step().value(TRANSIENT_FAILURES).isPresent()) {
            return StepOutcome.again(again.step().without(TRANSIENT_FAILURES).without(PROGRESS).without(SINCE).without(SYSTEM),
                    again.delay());
        }
        return outcome;
    }

    private StepOutcome afterTransientFailure(Step step, ExternalCallException e) {
        var marker = progressOf(step);
        var progressed = marker.isPresent() && step.value(PROGRESS).isPresent() && !marker.equals(step.value(PROGRESS));
        var failures = progressed ? 1 : step.intValue(TRANSIENT_FAILURES, 0) + 1;
        var since = failures == 1 ? transientRetry.now() : sinceOf(step);
        var delay = transientRetry.afterFailure(failures, since);
        if (delay.isEmpty()) {
            return gaveUp(step, e, since);
        }
        LOG.log(Level.WARNING, () -> step.instanceId() + " hit a transient " + e.system()
                + " failure (" + e.kind() + " " + e.status() + "); retry " + failures + " in " + delay.get()
                + (progressed ? " (the step made progress since its previous failure: counting afresh)" : ""));
        var counted = step.nextAttempt().with(TRANSIENT_FAILURES, failures).with(SYSTEM, e.system());
        var next = transientRetry.deadline().isPresent() ? counted.with(SINCE, since.toString()) : counted;
        return StepOutcome.again(marker.map(m -> next.with(PROGRESS, m)).orElse(next.without(PROGRESS)), delay.get());
    }

    /** When the step's current stretch of transient failures started; now when unknown or unreadable. */
    private Instant sinceOf(Step step) {
        try {
            return step.value(SINCE).map(Instant::parse).orElseGet(transientRetry::now);
        } catch (DateTimeParseException unreadable) {
            return transientRetry.now();
        }
    }

    /**
     * The transient retries are over: the explicit "gave up" state of this kind when it has one (hint
     * CONTACT_MAINTAINERS), otherwise the declared failure.
     */
    private StepOutcome gaveUp(Step step, ExternalCallException e, Instant since) {
        if (gaveUp.isEmpty() || changes.isEmpty() || transientRetry.deadline().isEmpty()) {
            return fail(step, e);
        }
        var id = OperationId.parse(step.ref());
        if (id.isEmpty()) {
            return StepOutcome.done();
        }
        var minutes = Math.max(1, Duration.between(since, transientRetry.now()).toMinutes());
        LOG.log(Level.ERROR, () -> step.instanceId() + " gave up after " + minutes + " min of transient " + e.system()
                + " failures; writing " + gaveUp.get());
        var written = changes.get().applyIfAllowed(id.get(), gaveUp.get(), TransientRetries.gaveUpNote(e.system(),
                transientRetry.deadlineText(), describe(e)));
        if (written.isEmpty()) {
            return fail(step, e);
        }
        return StepOutcome.done();
    }

    private static String describe(ExternalCallException e) {
        return e.status() > 0 ? "HTTP " + e.status() : e.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /**
     * The system asked to be called again later (GitLab's 429 with {@code Retry-After}, or the shared GitLab call
     * budget is used up): the step runs again after that wait plus a random part that grows with refusals in a row,
     * so steps refused together do not come back together; not counted as a transient failure, up to
     * {@link #MAX_RATE_LIMITED} times. The numbers and the reason: docs/external-systems-gitlab.md, "Rate limits,
     * approvals and check items by GitLab version".
     */
    private StepOutcome afterRateLimit(Step step, ExternalCallException e, Duration retryAfter) {
        var asked = retryAfter.compareTo(MIN_RATE_LIMIT_WAIT) < 0 ? MIN_RATE_LIMIT_WAIT
                : retryAfter.compareTo(MAX_RATE_LIMIT_WAIT) > 0 ? MAX_RATE_LIMIT_WAIT : retryAfter;
        var times = step.intValue(RATE_LIMITED, 0) + 1;
        var random = Math.min(Math.max(transientRetry.random().getAsDouble(), 0), 1);
        var spread = (long) (asked.toMillis() * RATE_LIMIT_SPREAD * Math.min(times, MAX_SPREAD_FACTOR) * random);
        var spreadWait = asked.plusMillis(spread);
        var wait = spreadWait.compareTo(MAX_RATE_LIMIT_WAIT) > 0 ? MAX_RATE_LIMIT_WAIT : spreadWait;
        LOG.log(Level.INFO, () -> step.instanceId() + " was rate limited by " + e.system() + " (" + e.status()
                + "); running again in " + wait);
        return StepOutcome.again(step.nextAttempt().with(RATE_LIMITED, times), wait);
    }

    /** The handler's progress marker, or none when it cannot be read (e.g. the database is unavailable too). */
    private Optional<String> progressOf(Step step) {
        try {
            return handler.progress(step);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, () -> step.instanceId() + ": progress marker not readable (" + e.getClass().getSimpleName() + ")");
            return Optional.empty();
        }
    }

    /**
     * The database did not answer ({@link DatabaseUnavailable}: no pooled connection in time, a statement past its
     * deadline, a lost connection): nothing of the failed write landed, and writing a failure state could not land
     * either, or would record an outage of ours as the request's failure. The step runs again after a backoff
     * (1 s doubling to {@link #MAX_DATABASE_WAIT}, plus up to half of it at random so that steps held by one outage
     * do not all come back at once); neither counted as a transient failure nor given up on: the database is this
     * service's own, and every step resumes when it answers (issue 34). If the reschedule cannot be written either,
     * the scheduler keeps the step and runs it again after the outage.
     */
    private StepOutcome afterDatabaseUnavailable(Step step, RuntimeException e) {
        var times = step.intValue(DATABASE_UNAVAILABLE, 0) + 1;
        var exponential = Duration.ofSeconds(1L << Math.min(times - 1, 5));
        var base = exponential.compareTo(MAX_DATABASE_WAIT) > 0 ? MAX_DATABASE_WAIT : exponential;
        var random = Math.min(Math.max(transientRetry.random().getAsDouble(), 0), 1);
        var wait = base.plusMillis((long) (base.toMillis() * 0.5 * random));
        LOG.log(Level.WARNING, () -> step.instanceId() + " could not reach the database (" + DatabaseUnavailable.reason(e)
                .map(Enum::name).orElse("") + ", " + times + " in a row); running again in " + wait);
        return StepOutcome.again(step.nextAttempt().with(DATABASE_UNAVAILABLE, times), wait);
    }

    private StepOutcome afterPreemption(Step step, PreemptedException e) {
        var preemptions = step.intValue(PREEMPTIONS, 0) + 1;
        if (preemptions > MAX_PREEMPTIONS) {
            return fail(step, e);
        }
        LOG.log(Level.INFO, () -> step.instanceId() + " lost a race on a state write; re-reading");
        return StepOutcome.again(step.nextAttempt().with(PREEMPTIONS, preemptions), PREEMPTED_RETRY);
    }

    private StepOutcome fail(Step step, RuntimeException cause) {
        return onFailure.failed(step, cause);
    }

    private static StepOutcome writeDeclaredFailure(StepKind kind, WorkflowEvent onError, StateChanges changes, Step step,
                                                    RuntimeException cause) {
        LOG.log(Level.ERROR, "step " + step.instanceId() + " failed unexpectedly; writing " + onError, cause);
        var id = OperationId.parse(step.ref());
        if (id.isEmpty()) {
            return StepOutcome.done();
        }
        try {
            var stepName = kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
            var written = changes.applyIfAllowed(id.get(), onError, cause instanceof PushRefused refused
                    // issue 35: GitLab's push rule refused Changeflow's commit or branch; its message says what
                    ? "The " + stepName + " step stopped: GitLab's push rule refused Changeflow's push (\"" + refused.rule()
                            + "\"). A maintainer changes the project's push rule (Settings > Repository > Push rules)"
                            + " so that it accepts it; then re-trigger the request."
                    : "The " + stepName + " step stopped on an unexpected error; an operator can re-trigger it.");
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
