package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.BatchRows.RELEASED;
import static io.changeflow.adapter.persistence.BatchRows.REQUEUED;
import static io.changeflow.adapter.persistence.BatchRows.claimedRows;
import static io.changeflow.adapter.persistence.BatchRows.code;
import static io.changeflow.adapter.persistence.BatchRows.deleteRequests;
import static io.changeflow.adapter.persistence.BatchRows.insertMembership;
import static io.changeflow.adapter.persistence.BatchReads.findIn;
import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.requireRows;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;

import io.changeflow.adapter.persistence.BatchRows.Waiting;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The writes to a claimed batch for {@link JooqBatches}: its merge request, and the transactions that end or
 * hold it (settle, block, changeStatus), each with the guarded batch write first, so of two settlers the second
 * rolls back whole (design 3.3, 3.7; the statements: docs/persistence.md, "Settlement and blocking").
 */
final class BatchSettlement {

    private BatchSettlement() {
    }

    static void recordMergeRequest(DSLContext dsl, long batchId, MergeRequestRef mr) {
        requireOneRow(dsl.update(MERGE_BATCH)
                .set(MERGE_BATCH.MR_PROJECT, mr.project())
                .set(MERGE_BATCH.MR_IID, mr.iid())
                .set(MERGE_BATCH.MR_BRANCH, mr.sourceBranch())
                .set(MERGE_BATCH.MR_WEB_URL, mr.webUrl())
                .set(MERGE_BATCH.UPDATED_AT, now())
                .where(MERGE_BATCH.ID.eq(batchId))
                .execute(), "batch " + batchId);
    }

    /**
     * Ending FAILED also releases the members in the same transaction (design 3.7: their waiting-set rows
     * are deleted, the membership history keeps them), so they can be admitted again.
     */
    static void changeStatus(DSLContext dsl, long batchId, BatchStatus from, BatchStatus to, String detail) {
        GapLockFree.transaction(dsl, ctx -> {
            guardedStatus(ctx, batchId, from, to, detail);
            if (to == BatchStatus.FAILED) {
                release(ctx, batchId, claimedRows(ctx, batchId));
            }
        });
    }

    /**
     * The guarded batch write, the members through the transition table (pinned to the versions read), their
     * waiting-set rows (requeued in place, keeping their admission time, or deleted) and the membership history.
     * The plan must name exactly the batch's claimed members.
     */
    static Batch settle(DSLContext dsl, long batchId, BatchStatus from, Resolution resolution, StepNote note) {
        var to = resolution instanceof Resolution.Merged ? BatchStatus.SUCCEEDED : BatchStatus.FAILED;
        Transitions.requireBatch(from, to);
        return GapLockFree.transactionResult(dsl, ctx -> {
            guardedStatus(ctx, batchId, from, to, note.detail());
            var claimed = claimedRows(ctx, batchId);
            var settlement = Settling.of(batchId, claimed, resolution);
            var states = MemberMoves.readStates(ctx, claimed.stream().map(Waiting::operationId).toList());
            settlement.events().forEach((event, ids) -> MemberMoves.move(ctx, event, ids, states, note));
            if (resolution instanceof Resolution.Merged merged) {
                // issue 36: a member the merged commit does not bear gives up with its own reason (few, one each)
                merged.notBorne().forEach((id, why) -> MemberMoves.move(ctx, WorkflowEvent.BATCH_GAVE_UP,
                        List.of(id.value()), states, new StepNote(why, note.actor())));
            }
            for (var group : settlement.requeued()) {
                for (var chunk : chunks(group.rows())) {
                    var update = ctx.update(MERGE_BATCH_REQUEST.forceIndex("PRIMARY"))
                            .set(MERGE_BATCH_REQUEST.BATCH_ID, (Long) null);
                    if (group.regroup()) {
                        update = update.set(MERGE_BATCH_REQUEST.BISECT_GROUP, group.group())
                                .set(MERGE_BATCH_REQUEST.DEPTH, group.depth());
                    }
                    requireRows(update.where(MERGE_BATCH_REQUEST.ID.in(chunk.stream().map(Waiting::requestId).toList()))
                            .and(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                            .execute(), chunk.size(), "requeueing members of batch " + batchId);
                    insertMembership(ctx, batchId, chunk, REQUEUED);
                }
            }
            if (resolution instanceof Resolution.Failed failed) {
                storeRetries(ctx, settlement.requeued(), failed.retries());
            }
            release(ctx, batchId, settlement.released());
            var settled = findIn(ctx, batchId).orElseThrow();
            if (resolution instanceof Resolution.Merged) {
                settled.mergeRequest().ifPresent(mr -> TransitionWrites.recordMergeOrder(ctx, mr.project(), mr.iid()));
            }
            return settled;
        });
    }

    /** RUNNING -> BLOCKED, the guarded batch write first, then every member BATCH_BLOCKED. */
    static Batch block(DSLContext dsl, long batchId, StepNote note) {
        return GapLockFree.transactionResult(dsl, ctx -> {
            guardedStatus(ctx, batchId, BatchStatus.RUNNING, BatchStatus.BLOCKED, note.detail());
            var ids = claimedRows(ctx, batchId).stream().map(Waiting::operationId).toList();
            MemberMoves.move(ctx, WorkflowEvent.BATCH_BLOCKED, ids, MemberMoves.readStates(ctx, ids), note);
            return findIn(ctx, batchId).orElseThrow();
        });
    }

    /** Deletes the waiting-set rows of members that leave batch {@code batchId} and records them RELEASED. */
    private static void release(DSLContext ctx, long batchId, List<Waiting> released) {
        for (var chunk : chunks(released)) {
            requireRows(deleteRequests(ctx, chunk, batchId), chunk.size(),
                    "releasing members of batch " + batchId);
            insertMembership(ctx, batchId, chunk, RELEASED);
        }
    }

    /**
     * The requeued members' transient failure counts and next eligible times (database clock plus the delay), one
     * statement per distinct retry and chunk of 1000 (a settlement has few distinct ones).
     */
    private static void storeRetries(DSLContext ctx, List<Settling.Requeue> requeued,
                                     Map<OperationId, TransientRetries.Retry> retries) {
        if (retries.isEmpty()) {
            return;
        }
        var byRetry = new LinkedHashMap<TransientRetries.Retry, List<Long>>();
        for (var group : requeued) {
            for (var row : group.rows()) {
                var retry = retries.get(OperationId.of(row.operationId()));
                if (retry != null) {
                    byRetry.computeIfAbsent(retry, r -> new ArrayList<>()).add(row.requestId());
                }
            }
        }
        byRetry.forEach((retry, rows) -> {
            for (var chunk : chunks(rows)) {
                requireRows(ctx.update(MERGE_BATCH_REQUEST.forceIndex("PRIMARY"))
                        .set(MERGE_BATCH_REQUEST.TRANSIENT_FAILURES, retry.transientFailures())
                        .set(MERGE_BATCH_REQUEST.ELIGIBLE_AT, Sql.ahead(retry.eligibleAfter()))
                        .where(MERGE_BATCH_REQUEST.ID.in(chunk))
                        .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                        .execute(), chunk.size(), "retries of requeued members");
            }
        });
    }

    private static void guardedStatus(DSLContext ctx, long batchId, BatchStatus from, BatchStatus to, String detail) {
        Transitions.requireBatch(from, to);
        requireOneRow(ctx.update(MERGE_BATCH)
                .set(MERGE_BATCH.STATUS, code(to))
                .set(MERGE_BATCH.VERSION, MERGE_BATCH.VERSION.plus(1))
                .set(MERGE_BATCH.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                .set(MERGE_BATCH.UPDATED_AT, now())
                .where(MERGE_BATCH.ID.eq(batchId))
                .and(MERGE_BATCH.STATUS.eq(code(from)))
                .execute(), "batch " + batchId + " " + from + " -> " + to);
    }

    /** What a resolution does to the claimed rows: each member's event, the rows requeued (by group), the rows released. */
    private record Settling(Map<WorkflowEvent, List<String>> events, List<Requeue> requeued, List<Waiting> released) {

        /** Rows waiting again; {@code regroup}: as the new bisection {@code group} at {@code depth}, else unchanged. */
        record Requeue(List<Waiting> rows, boolean regroup, String group, int depth) {}

        static Settling of(long batchId, List<Waiting> claimed, Resolution resolution) {
            var byOperation = new HashMap<String, Waiting>(claimed.size() * 2);
            claimed.forEach(w -> byOperation.put(w.operationId(), w));
            var named = new ArrayList<OperationId>(claimed.size());
            var events = new LinkedHashMap<WorkflowEvent, List<String>>();
            var requeued = new ArrayList<Requeue>();
            var released = new ArrayList<Waiting>();
            switch (resolution) {
                case Resolution.Merged merged -> {
                    claimed.forEach(w -> named.add(OperationId.of(w.operationId())));
                    merged.notBorne().keySet().forEach(id -> {
                        if (!byOperation.containsKey(id.value())) {
                            throw new IllegalArgumentException(id + " is not a member of the batch");
                        }
                    });
                    events.put(WorkflowEvent.BATCH_MERGED, claimed.stream().map(Waiting::operationId)
                            .filter(id -> !merged.notBorne().containsKey(OperationId.of(id))).toList());
                    released.addAll(claimed);
                }
                case Resolution.Failed failed -> {
                    var plan = failed.plan();
                    named.addAll(plan.members());
                    events.put(plan.memberEvent(), values(plan.members()));
                    switch (plan) {
                        case Bisection.Plan.RequeueAll<OperationId> all ->
                                requeued.add(new Requeue(rows(all.members(), byOperation), false, null, 0));
                        case Bisection.Plan.Split<OperationId> split -> {
                            requeued.add(new Requeue(rows(split.firstHalf(), byOperation), true,
                                    Bisection.Plan.Split.firstGroup(batchId), split.depth()));
                            requeued.add(new Requeue(rows(split.secondHalf(), byOperation), true,
                                    Bisection.Plan.Split.secondGroup(batchId), split.depth()));
                        }
                        case Bisection.Plan.Blame<OperationId> blame -> released.addAll(rows(blame.members(), byOperation));
                        case Bisection.Plan.GiveUp<OperationId> giveUp -> released.addAll(rows(giveUp.members(), byOperation));
                    }
                }
            }
            if (named.size() != claimed.size() || named.stream().map(OperationId::value).distinct().count() != claimed.size()) {
                throw new IllegalArgumentException("the plan names " + named.size() + " members, batch " + batchId
                        + " has " + claimed.size());
            }
            return new Settling(events, requeued, released);
        }

        private static List<String> values(List<OperationId> ids) {
            return ids.stream().map(OperationId::value).toList();
        }

        private static List<Waiting> rows(List<OperationId> ids, Map<String, Waiting> byOperation) {
            return ids.stream().map(id -> {
                var row = byOperation.get(id.value());
                if (row == null) {
                    throw new IllegalArgumentException(id + " is not a member of the batch");
                }
                return row;
            }).toList();
        }
    }
}
