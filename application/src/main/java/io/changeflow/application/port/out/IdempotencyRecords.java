package io.changeflow.application.port.out;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Idempotency keys of write requests, enforced by a unique key: look up, insert, and on a
 * conflict re-read the winner. Records expire after their time to live and are purged in chunks.
 */
public interface IdempotencyRecords {

    /**
     * Claims {@code key} for a request with {@code fingerprint}.
     *
     * <p>A claim that never got an outcome and is older than {@code abandonedAfter} was abandoned: the
     * instance validating it died (or lost the database) between claiming the key and storing the answer.
     * A retry with the same fingerprint takes such a claim over (one retry wins, atomically) and validates
     * again, so a crash never leaves a key "in flight" for the record's whole time to live.
     *
     * @param abandonedAfter how long a claim without outcome is trusted to be still in progress
     * @return {@link Claim.Fresh} when this caller inserted the record or took over an abandoned claim (it proceeds);
     *         {@link Claim.Existing} with the stored record when the key was already there (a retry or a reuse);
     *         {@link Claim.RetryLater} when the insert conflicted but the winner vanished before it could be read
     */
    Claim checkOrInsert(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter);

    /** Outcome of {@link #checkOrInsert}. */
    sealed interface Claim {
        record Fresh() implements Claim {}

        /** @param outcome the stored outcome once the original completed; empty while it is still being validated */
        record Existing(String fingerprint, Optional<String> outcome) implements Claim {}

        record RetryLater() implements Claim {}
    }

    /** Stores the outcome to replay for retries of {@code key}. */
    void complete(String key, String outcome);

    /**
     * The outcome to store for {@code key}, handed to a write that stores it in its own transaction
     * ({@link Operations#open(io.changeflow.domain.request.ChangeRequest, io.changeflow.domain.request.StepOrder,
     * io.changeflow.domain.state.WorkflowEvent, String, Outcome)}) instead of a separate {@link #complete}.
     */
    record Outcome(String key, String outcome) {
        public Outcome {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /** Forgets {@code key} (its request was refused, so a retry must be validated again). */
    void release(String key);

    /**
     * Deletes up to {@code chunkSize} expired records (database clock).
     *
     * @return how many were deleted; callers loop until it is below {@code chunkSize}
     */
    int purgeExpired(int chunkSize);
}
