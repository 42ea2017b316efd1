package io.changeflow.application.port.out;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Durable execution of workflow steps in the shared database: a scheduled step survives a crash and is
 * picked up by any instance; waiting is a rescheduling, never a sleeping thread. At most one step of a kind
 * is pending or running per ref; {@link #schedule} refuses new work when the backlog is full. Identity,
 * outcomes and the backlog bound: docs/workflow.md.
 */
public interface WorkQueue {

    /** Which step to run. */
    enum StepKind {
        /** Send the approval form. */
        SUBMIT_APPROVAL,
        /** Create branch, commit and merge request, then wait for its pipeline. */
        CREATE,
        /** Approve with each bot, merge, rebase and retry. */
        HANDLE,
        /** Close the merge request (cleanup or operator close). */
        CLOSE,
        /** Create and merge a batch's merge request. */
        BATCH,
        /** Settle a failed or stuck batch. */
        SETTLE_BATCH,
        /** Ask the approval system about one request's approval now (an operator's re-trigger while it waits). */
        CHECK_APPROVAL
    }

    /**
     * A step to run for {@code ref} (an operationId, or a batch id for batch steps).
     *
     * @param attempt how many times this step has been run so far plus one (1 for the first run)
     * @param data    the step's own progress (phase, counters, when waiting started), carried from
     *                one run to the next; plain strings so a task written by one release is read by the next
     */
    record Step(StepKind kind, String ref, int attempt, Map<String, String> data) implements Serializable {

        public Step {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(ref, "ref");
            if (attempt < 1) {
                throw new IllegalArgumentException("attempts start at 1");
            }
            data = Map.copyOf(data);
        }

        public Step(StepKind kind, String ref, int attempt) {
            this(kind, ref, attempt, Map.of());
        }

        public static Step first(StepKind kind, String ref) {
            return new Step(kind, ref, 1);
        }

        /** The same step for its next run, with its data. */
        public Step nextAttempt() {
            return new Step(kind, ref, attempt + 1, data);
        }

        /** The task instance name: one per kind and ref (e.g. {@code HANDLE:4f0c...}). */
        public String instanceId() {
            return kind.name() + ":" + ref;
        }

        /** This step with {@code key} set to {@code value}. */
        public Step with(String key, String value) {
            var copy = new HashMap<>(data);
            copy.put(key, value);
            return new Step(kind, ref, attempt, copy);
        }

        public Step with(String key, long value) {
            return with(key, String.valueOf(value));
        }

        /** This step without {@code key}. */
        public Step without(String key) {
            var copy = new HashMap<>(data);
            copy.remove(key);
            return new Step(kind, ref, attempt, copy);
        }

        public Optional<String> value(String key) {
            return Optional.ofNullable(data.get(key));
        }

        /** The integer under {@code key}, or {@code fallback} when missing or unreadable. */
        public int intValue(String key, int fallback) {
            var raw = data.get(key);
            if (raw == null) {
                return fallback;
            }
            try {
                return Integer.parseInt(raw);
            } catch (NumberFormatException e) {
                return fallback;
            }
        }
    }

    /**
     * Schedules {@code step} to run after {@code delay}, replacing a pending step of the same
     * {@link Step#instanceId() instance}. When that instance is running right now it is left to
     * finish (it re-reads the state anyway) and this call answers true.
     *
     * @return false when the backlog is full: nothing was scheduled and the caller records a visible failure
     */
    boolean schedule(Step step, Duration delay);

    /**
     * {@link #schedule} for the first step of a ref that has none of this kind yet (the step a new request starts
     * with), due now. Same answers; a queue may write it with one insert and no read first (issue 33: admission at
     * the cost of its statements), and still replaces a pending step of the same instance, at the price of the
     * insert that found it.
     */
    default boolean scheduleFirst(Step step) {
        return schedule(step, Duration.ZERO);
    }

    /**
     * Whether a step of {@code kind} for {@code ref} is pending or running. The timeout sweep asks
     * this before re-scheduling, so a step that is alive and waiting keeps its progress.
     */
    boolean isScheduled(StepKind kind, String ref);

    /**
     * Brings the pending step of {@code kind} for {@code ref} forward to now, with its data unchanged (issue 33: a
     * GitLab event wakes the step waiting on that merge request; the step then reads GitLab as on any run). A step
     * that is not pending, is running right now or is due already is left alone. Never adds work, so never refused.
     *
     * @return true when a pending step was brought forward; false (the default: a queue that cannot bring a step
     *         forward) leaves the step to run at its time
     */
    default boolean wake(StepKind kind, String ref) {
        return false;
    }

    /** Steps waiting to run (the backlog). */
    int backlog();

    /**
     * The backlog as an operator reads it, cluster-wide, in one read.
     *
     * @param waiting   steps not running now (the backlog the bound counts; waiting on purpose included)
     * @param dueNow    waiting steps whose time has come (a growing number means the instances fall behind)
     * @param running   steps running now
     * @param failing   steps that threw on their last run and are retried
     * @param capacity  the bound: new work is refused once {@code waiting} reaches it
     * @param oldestDue the earliest due time among the waiting steps that are due, empty when none is
     */
    record Backlog(int waiting, int dueNow, int running, int failing, int capacity, Optional<Instant> oldestDue) {
        public Backlog {
            Objects.requireNonNull(oldestDue, "oldestDue");
        }
    }

    /** The {@link Backlog}; throws when the queue cannot be read. */
    Backlog backlogSummary();

    /** A pending step and when it is due. */
    record Scheduled(Step step, Instant due) {}

    /**
     * The pending (or running) step of {@code kind} for {@code ref} with its due time, for showing a person when
     * the next attempt is due. Read-only; a step that is running right now may show its previous due time.
     *
     * @return empty when none is pending, or when this queue cannot tell (the default)
     */
    default Optional<Scheduled> scheduled(StepKind kind, String ref) {
        return Optional.empty();
    }
}
