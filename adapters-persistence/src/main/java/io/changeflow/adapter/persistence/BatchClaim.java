package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.BatchRows.CLAIMED;
import static io.changeflow.adapter.persistence.BatchRows.DROPPED;
import static io.changeflow.adapter.persistence.BatchRows.code;
import static io.changeflow.adapter.persistence.BatchRows.deleteRequests;
import static io.changeflow.adapter.persistence.BatchRows.insertMembership;
import static io.changeflow.adapter.persistence.BatchRows.waiting;
import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.requireRows;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;

import io.changeflow.adapter.persistence.BatchRows.Waiting;
import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.Objects;
import org.jooq.DSLContext;

/**
 * The way into a batch for {@link JooqBatches}: admission to the waiting set, the lock-free pre-check and the
 * claim transaction (design 3.2; its statements and why: docs/persistence.md, "The claim transaction").
 */
final class BatchClaim {

    private static final String CLAIM_NOTE = "claimed by batch ";

    private BatchClaim() {
    }

    static boolean admit(DSLContext dsl, OperationId id, String partition) {
        return Sql.insertedUnlessDuplicate(dsl.insertInto(MERGE_BATCH_REQUEST)
                .set(MERGE_BATCH_REQUEST.OPERATION_ID, id.value())
                .set(MERGE_BATCH_REQUEST.PARTITION_KEY, partition));
    }

    static boolean hasWaiting(DSLContext dsl, String partition) {
        // forced: with the eligibility filter the optimizer would rather read every waiting row by batch_id IS NULL
        return dsl.fetchExists(dsl.selectOne().from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_waiting"))
                .where(waiting(partition)));
    }

    /**
     * The slot insert comes first; its duplicate key is caught inside the transaction, which stays usable and
     * commits nothing. The waiting requests are read without locks (I3); the claim UPDATE goes through the
     * primary key only and must touch exactly the rows read, else everything rolls back
     * ({@link PreemptedException}). Requests whose operation no longer allows BATCH_CLAIMED are dropped.
     */
    static Claim claim(DSLContext dsl, String partition, int maxRequests) {
        if (maxRequests < 1) {
            throw new IllegalArgumentException("a claim takes at least one request");
        }
        try {
            return GapLockFree.transactionResult(dsl, ctx -> claimInTransaction(ctx, partition, maxRequests));
        } catch (NothingToClaim e) {
            return new Claim.NothingToClaim();
        } catch (SlotContended e) {
            return new Claim.SlotOccupied();
        }
    }

    private static Claim claimInTransaction(DSLContext ctx, String partition, int maxRequests) {
        long batchId;
        try {
            batchId = ctx.insertInto(MERGE_BATCH)
                    .set(MERGE_BATCH.PARTITION_KEY, partition)
                    .set(MERGE_BATCH.STATUS, code(BatchStatus.RUNNING))
                    .returningResult(MERGE_BATCH.ID)
                    .fetchOne()
                    .value1();
        } catch (RuntimeException e) {
            if (Sql.isDuplicateKey(e)) {
                return new Claim.SlotOccupied();
            }
            if (Sql.isDeadlock(e)) {
                // waiters on a slot whose holder rolled back (nothing to claim) can deadlock on the
                // unique index; InnoDB has rolled this one back, and the other claimer goes on
                throw new SlotContended();
            }
            throw e;
        }

        var read = ctx.select(MERGE_BATCH_REQUEST.ID, MERGE_BATCH_REQUEST.OPERATION_ID, MERGE_BATCH_REQUEST.BISECT_GROUP,
                        MERGE_BATCH_REQUEST.DEPTH)
                .from(MERGE_BATCH_REQUEST)
                .where(waiting(partition))
                .orderBy(MERGE_BATCH_REQUEST.CREATED_AT, MERGE_BATCH_REQUEST.ID)
                .limit(maxRequests)
                .fetch();
        if (read.isEmpty()) {
            throw new NothingToClaim();
        }
        var group = read.getFirst().get(MERGE_BATCH_REQUEST.BISECT_GROUP);
        var depth = read.getFirst().get(MERGE_BATCH_REQUEST.DEPTH);
        var pending = read.stream()
                .filter(r -> Objects.equals(r.get(MERGE_BATCH_REQUEST.BISECT_GROUP), group))
                .map(r -> new Waiting(r.get(MERGE_BATCH_REQUEST.ID), r.get(MERGE_BATCH_REQUEST.OPERATION_ID)))
                .toList();

        var states = MemberMoves.readStates(ctx, pending.stream().map(Waiting::operationId).toList());
        var eligible = new ArrayList<Waiting>(pending.size());
        var dropped = new ArrayList<Waiting>();
        for (var w : pending) {
            var state = states.get(w.operationId());
            if (state != null && Transitions.check(state.workflowState(), WorkflowEvent.BATCH_CLAIMED).allowed()) {
                eligible.add(w);
            } else {
                dropped.add(w);
            }
        }
        for (var chunk : chunks(dropped)) {
            requireRows(deleteRequests(ctx, chunk), chunk.size(), "dropping requests that no longer wait");
            insertMembership(ctx, batchId, chunk, DROPPED);
        }
        if (eligible.isEmpty()) {
            requireOneRow(ctx.deleteFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).execute(), "empty batch " + batchId);
            return new Claim.NothingToClaim();
        }

        for (var chunk : chunks(eligible)) {
            requireRows(ctx.update(MERGE_BATCH_REQUEST.forceIndex("PRIMARY"))
                    .set(MERGE_BATCH_REQUEST.BATCH_ID, batchId)
                    .where(MERGE_BATCH_REQUEST.ID.in(chunk.stream().map(Waiting::requestId).toList()))
                    .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                    .execute(), chunk.size(), "claim of batch " + batchId);
            insertMembership(ctx, batchId, chunk, CLAIMED);
        }
        MemberMoves.claim(ctx, eligible.stream().map(Waiting::operationId).toList(), states,
                new StepNote(CLAIM_NOTE + batchId, "system"), batchId);
        if (depth != 0) {
            ctx.update(MERGE_BATCH).set(MERGE_BATCH.DEPTH, depth).where(MERGE_BATCH.ID.eq(batchId)).execute();
        }
        var batch = ctx.selectFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).fetchSingle();
        return new Claim.Claimed(BatchReads.toBatch(batch,
                eligible.stream().map(w -> OperationId.of(w.operationId())).toList()));
    }

    /** The slot insert lost a deadlock to another claimer of the same partition. */
    private static final class SlotContended extends RuntimeException {
        SlotContended() {
            super("another claimer took the slot", null, false, false);
        }
    }

    /** Thrown inside the claim transaction to roll it back (and with it the slot just taken). */
    private static final class NothingToClaim extends RuntimeException {
        NothingToClaim() {
            super("nothing waiting", null, false, false);
        }
    }
}
