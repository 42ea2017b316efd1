package io.changeflow.application.port.out;

import java.time.Duration;

/**
 * Durable execution of workflow steps in the shared database: a scheduled step survives a crash
 * and is picked up by any instance; waiting is a rescheduling, never a sleeping thread. At most one
 * pending step per operation (or batch): scheduling replaces the pending one.
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
        SETTLE_BATCH
    }

    /** A step to run for {@code ref} (an operationId, or a batch id for batch steps). */
    record Step(StepKind kind, String ref, int attempt) {
        public static Step first(StepKind kind, String ref) {
            return new Step(kind, ref, 1);
        }

        public Step nextAttempt() {
            return new Step(kind, ref, attempt + 1);
        }
    }

    /**
     * Schedules {@code step} to run after {@code delay}, replacing a pending step of the same ref.
     *
     * @return false when the backlog is full: nothing was scheduled and the caller records a visible failure
     */
    boolean schedule(Step step, Duration delay);

    /** Steps waiting to run (the backlog). */
    int backlog();
}
