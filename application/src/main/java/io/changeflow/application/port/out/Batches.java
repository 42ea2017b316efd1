package io.changeflow.application.port.out;

import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Batch aggregation on the database invariants: one active batch per partition (a generated
 * column plus a unique index, I1), no request in two batches (guarded claim, I2), admission never
 * blocked by a claim (no locking reads on the waiting range, I3), idempotent admission (unique key,
 * I4), guarded status writes (I6).
 */
public interface Batches {

    /**
     * Adds an approved request to the waiting set of {@code partition}.
     *
     * @return true when admitted now, false when it already was (a duplicate key is an answer)
     */
    boolean admit(OperationId id, String partition);

    /** Lock-free pre-check: is anything waiting in {@code partition}? */
    boolean hasWaiting(String partition);

    /**
     * One claim transaction: take the partition's slot (occupied: {@link Claim.SlotOccupied}),
     * read up to {@code maxRequests} waiting requests without locking, claim them with a guarded
     * update whose row count must match (else roll back everything), append the membership history
     * and move the members to BATCH_CLAIMED. Nothing waiting rolls back so no empty batch survives.
     */
    Claim claim(String partition, int maxRequests);

    /** Outcome of {@link #claim}. */
    sealed interface Claim {
        record Claimed(Batch batch) implements Claim {}

        record SlotOccupied() implements Claim {}

        record NothingToClaim() implements Claim {}
    }

    Optional<Batch> find(long batchId);

    /** Newest first. */
    List<Batch> recent(int limit);

    /** Active batches (RUNNING or BLOCKED) of every partition. */
    List<Batch> active();

    /** Running batches created longer ago than {@code age} (database clock), for the timeout sweep. */
    List<Batch> runningOlderThan(Duration age);

    void recordMergeRequest(long batchId, MergeRequestRef mergeRequest);

    /**
     * Guarded batch status write ({@code WHERE status = from}); a terminal status releases the slot.
     *
     * @throws PreemptedException the batch is no longer in {@code from}
     */
    void changeStatus(long batchId, BatchStatus from, BatchStatus to, String detail);
}
