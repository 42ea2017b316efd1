package io.changeflow.application.port.out;

import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    /** Lock-free pre-check: is anything waiting in {@code partition} and eligible now (not backing off)? */
    boolean hasWaiting(String partition);

    /**
     * One claim transaction: takes the partition's slot ({@link Claim.SlotOccupied} when held) and up to
     * {@code maxRequests} waiting requests of one bisection group, the oldest waiting request's (one claim never mixes
     * groups; the batch's {@link Batch#depth()} is the group's), moving them to BATCH_CLAIMED pinned to what was read.
     * Nothing waiting rolls back ({@link Claim.NothingToClaim}: no empty batch survives). A request still backing off
     * after a transient failure is neither claimed nor counted by {@link #hasWaiting}; one that no longer allows
     * BATCH_CLAIMED is dropped from the waiting set. The statements: docs/persistence.md, "The claim transaction".
     *
     * @return what the claim did; a {@link Claim.Claimed} batch is committed with all its members
     * @throws PreemptedException a guarded write's row count did not match the rows read (another
     *                            claim or a state write took one of them first): everything is rolled
     *                            back (no batch, no membership, no member moved, the slot free again),
     *                            so the caller may simply claim again
     */
    Claim claim(String partition, int maxRequests);

    /** Outcome of {@link #claim}. */
    sealed interface Claim {
        record Claimed(Batch batch) implements Claim {}

        record SlotOccupied() implements Claim {}

        record NothingToClaim() implements Claim {}
    }

    Optional<Batch> find(long batchId);

    /**
     * The transient failures counted so far for each request the batch claimed (see {@link Resolution.Failed}),
     * one indexed read; a member without failures maps to 0.
     */
    Map<OperationId, Integer> transientFailures(long batchId);

    /** Newest first. */
    default List<Batch> recent(int limit) {
        return recent(Filter.ANY, limit);
    }

    /** Newest first, only those the filter lets through. */
    List<Batch> recent(Filter filter, int limit);

    /** Which batches a list shows: those in {@code status} and of {@code partition}, each when given. */
    record Filter(Optional<BatchStatus> status, Optional<String> partition) {

        public static final Filter ANY = new Filter(Optional.empty(), Optional.empty());

        public Filter {
            Objects.requireNonNull(status);
            Objects.requireNonNull(partition);
        }

        public boolean matches(Batch batch) {
            return status.map(batch.status()::equals).orElse(true) && partition.map(batch.partition()::equals).orElse(true);
        }
    }

    /** Active batches (RUNNING or BLOCKED) of every partition. */
    List<Batch> active();

    /** Running batches created longer ago than {@code age} (database clock), for the timeout sweep. */
    List<Batch> runningOlderThan(Duration age);

    /**
     * Issue 36: active batches (RUNNING or BLOCKED) created longer ago than {@code age} (database clock), for the batch
     * sweep, which settles them past the batch timeout whatever step they still hold; oldest first.
     */
    List<Batch> activeOlderThan(Duration age);

    /**
     * Issue 36: BLOCKED batches whose last write (their blocking) is older than {@code age} (database clock), for the
     * batch sweep, which settles them again; oldest first.
     */
    List<Batch> blockedOlderThan(Duration age);

    /**
     * Remembers the batch's merge request (its members show it as theirs). Idempotent for the same
     * merge request; the batch's status is not looked at, so a step that opened the merge request just
     * after the batch was settled still records it (and then closes it).
     */
    void recordMergeRequest(long batchId, MergeRequestRef mergeRequest);

    /**
     * Low-level guarded batch status write ({@code WHERE status = from}); a terminal status releases the
     * slot, FAILED also deletes the members' waiting-set rows. The members' own states are not touched:
     * the batch workflow uses {@link #settle} and {@link #block}, which move batch and members together.
     *
     * @throws PreemptedException the batch is no longer in {@code from}
     */
    void changeStatus(long batchId, BatchStatus from, BatchStatus to, String detail);

    /**
     * Ends an active batch in one transaction. Its first write is the batch's guarded status write to SUCCEEDED
     * ({@link Resolution.Merged}) or FAILED ({@link Resolution.Failed}), which frees the partition's slot, so of two
     * settlers the second writes nothing; then the members go through the transition table pinned to what was read
     * (merged: BATCH_MERGED, those the merged commit does not bear BATCH_GAVE_UP with their own note; failed:
     * {@link io.changeflow.domain.batch.Bisection.Plan#memberEvent()} of the plan), are
     * requeued in place or released from the waiting set, and the membership history is appended (the CLAIMED entries
     * stay). The statements, in order: docs/persistence.md, "Settlement and blocking".
     *
     * @param from the status read (RUNNING or BLOCKED)
     * @param note the batch row's detail and the members' history note (actor included)
     * @return the batch as settled (its {@code updatedAt} is the database clock at settlement)
     * @throws PreemptedException the batch is no longer in {@code from} (another settler won), or a member's
     *                            state changed since it was read: nothing was written
     * @throws IllegalArgumentException a failure plan that does not name exactly the batch's members: nothing
     *                                  was written
     * @throws io.changeflow.domain.state.IllegalBatchTransitionException {@code from} is terminal
     */
    Batch settle(long batchId, BatchStatus from, Resolution resolution, Operations.StepNote note);

    /** How {@link #settle} ends a batch. */
    sealed interface Resolution {
        /**
         * The batch merge request merged: the batch SUCCEEDED, every member BATCH_MERGED (then MERGED) but those in
         * {@code notBorne} (issue 36: the merged commit does not bear their claim, see
         * {@link io.changeflow.application.workflow.MergedCommit#notBorne}), which take BATCH_GAVE_UP (HANDLE_FAILED,
         * a person decides) with their reason as their note; every member leaves the waiting set.
         */
        record Merged(Map<OperationId, String> notBorne) implements Resolution {
            public Merged {
                notBorne = Map.copyOf(notBorne);
            }

            /** Every member borne by the merged commit. */
            public Merged() {
                this(Map.of());
            }
        }

        /**
         * The batch failed: the batch FAILED, the members as {@code plan} says. Each requeued member named in
         * {@code retries} waits again with that count of transient failures and may be claimed only
         * {@link TransientRetries.Retry#eligibleAfter()} after the settlement (database clock); a requeued member
         * not named keeps its count and is eligible at once.
         */
        record Failed(Bisection.Plan<OperationId> plan, Map<OperationId, TransientRetries.Retry> retries)
                implements Resolution {
            public Failed {
                Objects.requireNonNull(plan, "plan");
                retries = Map.copyOf(retries);
            }

            /** Without retries: counts kept, eligible at once. */
            public Failed(Bisection.Plan<OperationId> plan) {
                this(plan, Map.of());
            }
        }
    }

    /**
     * RUNNING -> BLOCKED with every member BATCH_BLOCKED (still BATCHED, step "batch pending", hint
     * KEEP_WAITING), in one transaction, the batch's guarded write first. A blocked batch keeps its
     * partition's slot until it is settled ({@link #settle} from BLOCKED).
     *
     * @return the blocked batch
     * @throws PreemptedException the batch is no longer RUNNING (or a member changed): nothing was written
     */
    Batch block(long batchId, Operations.StepNote note);
}
