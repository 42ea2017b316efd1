package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.polling.JitteredBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * How long and how far apart transient external failures are retried: capped exponential backoff with jitter, at
 * least {@code floor}'s retries, then until the transient deadline counted from the first failure of a stretch without
 * progress; after that the caller writes an explicit state whose hint is CONTACT_MAINTAINERS. Used by
 * {@link StepSafetyNet} and by {@code RetryTransientFailures}; the rules: docs/workflow.md, "The step safety net".
 *
 * @param floor    the least number of retries, and the exponential delays ({@code backoff.max()} is the cap)
 * @param deadline how long a stretch of transient failures is retried; empty: only {@code floor} counts
 * @param spread   the share of each delay that is random ({@link JitteredBackoff}); 0.5 in production
 * @param clock    when "now" is
 * @param random   uniformly distributed numbers in {@code [0, 1)} for the jitter (seeded in tests)
 */
public record TransientRetries(RetryPolicy floor, Optional<Duration> deadline, double spread, Clock clock,
                               DoubleSupplier random) {

    /** The transient deadline used when none (or a zero or negative one) is configured. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofHours(1);
    /** "Equal jitter": each delay is at least half of its exponential delay. */
    public static final double JITTER = 0.5;

    public TransientRetries {
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(random, "random");
        deadline = Objects.requireNonNull(deadline, "deadline").map(TransientRetries::orDefault);
        new JitteredBackoff(floor.backoff(), spread);
    }

    /** Retries until {@code deadline} (a missing, zero or negative one means {@link #DEFAULT_DEADLINE}). */
    public static TransientRetries until(RetryPolicy floor, Duration deadline, Clock clock, DoubleSupplier random) {
        return new TransientRetries(floor, Optional.of(orDefault(deadline)), JITTER, clock, random);
    }

    /**
     * Exactly {@code policy.maxRetries()} retries, no jitter, no deadline (the count as it was before issue 20).
     * Time plays no part, so the clock is a fixed one.
     */
    public static TransientRetries counted(RetryPolicy policy) {
        return new TransientRetries(policy, Optional.empty(), 0, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), () -> 0);
    }

    /** A zero, negative or missing deadline falls back to {@link #DEFAULT_DEADLINE}: never "give up at once". */
    public static Duration orDefault(Duration deadline) {
        return deadline == null || deadline.isZero() || deadline.isNegative() ? DEFAULT_DEADLINE : deadline;
    }

    /** Now, by the injected clock. */
    public Instant now() {
        return clock.instant();
    }

    /** When a stretch that started at {@code since} gives up; empty without a deadline. */
    public Optional<Instant> givesUpAt(Instant since) {
        return deadline.map(since::plus);
    }

    /**
     * The delay before the next attempt after failure number {@code failures} (1 after the first) of a stretch
     * that started at {@code since}; empty when the retries are over: the floor is used up and the deadline
     * has passed (or, without a deadline, the floor is used up). The delay never reaches past the deadline by
     * more than nothing: the last attempt runs at the deadline.
     */
    public Optional<Duration> afterFailure(int failures, Instant since) {
        var now = now();
        var overFloor = failures > floor.maxRetries();
        if (deadline.isEmpty()) {
            return overFloor ? Optional.empty() : Optional.of(floor.backoff().delayBefore(failures));
        }
        var end = since.plus(deadline.get());
        if (overFloor && !now.isBefore(end)) {
            return Optional.empty();
        }
        var delay = new JitteredBackoff(floor.backoff(), spread).delayBefore(Math.max(1, failures), random.getAsDouble());
        var untilEnd = Duration.between(now, end);
        return Optional.of(overFloor && untilEnd.isPositive() && untilEnd.compareTo(delay) < 0 ? untilEnd : delay);
    }

    /** "1 h", "90 min": the deadline as a person reads it. */
    public String deadlineText() {
        return deadline.map(PipelineWatch::text).orElse(floor.maxRetries() + " retries");
    }

    /**
     * The note of a "gave up" state, e.g. "Gave up after 1 h of GitLab failures (the last: HTTP 502) ...".
     *
     * @param system   the failing system as named by {@code ExternalCallException.system()}, e.g. {@code gitlab}
     * @param duration how long it was retried, as a person reads it
     * @param last     the last failure, e.g. "HTTP 502", "timeout", "circuit open", "a full backlog"
     */
    public static String gaveUpNote(String system, String duration, String last) {
        var name = switch (system.toLowerCase(java.util.Locale.ROOT)) {
            case "gitlab" -> "GitLab";
            case "approval" -> "approval system";
            default -> system;
        };
        return "Gave up after " + duration + " of " + name + " failures (the last: " + last + "); the automatic retries "
                + "stopped. Check that " + (name.equals("GitLab") ? "GitLab" : "the " + name) + " is reachable and healthy, "
                + "then re-trigger the request.";
    }

    /**
     * The explicit state written when the transient retries of {@code kind} gave up (hint CONTACT_MAINTAINERS);
     * empty for kinds whose failure is no request state of its own (closing: the request already ended; batch
     * steps settle their batch).
     */
    public static Optional<WorkflowEvent> gaveUpEvent(StepKind kind) {
        return switch (kind) {
            case SUBMIT_APPROVAL -> Optional.of(WorkflowEvent.APPROVAL_SUBMIT_GAVE_UP);
            case CREATE -> Optional.of(WorkflowEvent.CREATE_GAVE_UP);
            case HANDLE -> Optional.of(WorkflowEvent.HANDLE_GAVE_UP);
            case CLOSE, BATCH, SETTLE_BATCH, CHECK_APPROVAL -> Optional.empty();
        };
    }
}
