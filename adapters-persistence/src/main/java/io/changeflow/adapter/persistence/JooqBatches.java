package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.requireRows;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_MEMBERSHIP_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.row;

import io.changeflow.adapter.persistence.jooq.tables.records.MergeBatchRecord;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.Row2;
import org.jooq.Row3;

/**
 * {@link Batches} on {@code merge_batch} (the generated {@code active_slot} with its unique index
 * is the single active batch per partition, I1) and {@code merge_batch_request} (the waiting set,
 * {@code batch_id IS NULL}).
 */
final class JooqBatches implements Batches {

    static final String CLAIMED = "CLAIMED";
    static final String RELEASED = "RELEASED";
    static final String DROPPED = "DROPPED";
    static final String REQUEUED = "REQUEUED";

    private static final String CLAIM_NOTE = "claimed by batch ";

    private final DSLContext dsl;

    JooqBatches(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public boolean admit(OperationId id, String partition) {
        try {
            dsl.insertInto(MERGE_BATCH_REQUEST)
                    .set(MERGE_BATCH_REQUEST.OPERATION_ID, id.value())
                    .set(MERGE_BATCH_REQUEST.PARTITION_KEY, partition)
                    .execute();
            return true;
        } catch (RuntimeException e) {
            if (Sql.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean hasWaiting(String partition) {
        // forced: with the eligibility filter the optimizer would rather read every waiting row by batch_id IS NULL
        return dsl.fetchExists(dsl.selectOne().from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_waiting"))
                .where(waiting(partition)));
    }

    /**
     * Waiting, admitted before this millisecond of the database clock, and not backing off after a transient
     * failure (the eligibility is a filter on the rows of the waiting range, which is still read in index order).
     */
    static Condition waiting(String partition) {
        return MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                .and(MERGE_BATCH_REQUEST.CREATED_AT.lt(now()))
                .and(MERGE_BATCH_REQUEST.ELIGIBLE_AT.isNull().or(MERGE_BATCH_REQUEST.ELIGIBLE_AT.le(now())));
    }

    /**
     * Design 3.2, per partition. The slot insert comes first; its duplicate key is caught inside
     * the transaction, which stays usable (InnoDB rolls back only the failed statement) and commits
     * nothing. The waiting requests are read without locks (a locking read would take next-key
     * locks on the waiting range and block admissions, I3); the claim UPDATE goes through the
     * primary key only, re-checks {@code batch_id IS NULL} and must touch exactly the rows read,
     * else everything rolls back ({@link PreemptedException}). Members move BATCH_WAITING ->
     * BATCHED through the transition table in the same transaction, pinning the versions read.
     * A waiting request whose operation no longer allows BATCH_CLAIMED (e.g. closed by an operator)
     * is dropped from the waiting set instead of blocking every later round. The oldest waiting
     * request decides the bisection group claimed (fresh requests form the NULL group).
     */
    @Override
    public Claim claim(String partition, int maxRequests) {
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

    private Claim claimInTransaction(DSLContext ctx, String partition, int maxRequests) {
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

        var states = readStates(ctx, pending.stream().map(Waiting::operationId).toList());
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
            requireRows(deleteRequests(ctx, chunk, Optional.empty()), chunk.size(), "dropping requests that no longer wait");
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
        moveMembers(ctx, WorkflowEvent.BATCH_CLAIMED, eligible.stream().map(Waiting::operationId).toList(), states,
                new StepNote(CLAIM_NOTE + batchId, "system"), Optional.of(batchId));
        if (depth != 0) {
            ctx.update(MERGE_BATCH).set(MERGE_BATCH.DEPTH, depth).where(MERGE_BATCH.ID.eq(batchId)).execute();
        }
        var batch = ctx.selectFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).fetchSingle();
        return new Claim.Claimed(toBatch(batch, eligible.stream().map(w -> OperationId.of(w.operationId())).toList()));
    }

    private record Waiting(long requestId, String operationId) {}

    private record MemberState(long operationVersion, int step, String bindingStatus, Long bindingVersion, String subject,
                               String target) {
        WorkflowState workflowState() {
            return new WorkflowState(JooqOperations.step(step),
                    Optional.ofNullable(bindingStatus).map(JooqOperations::status));
        }
    }

    /** The members' operation and binding state, plain reads by primary key and unique key, chunks of 1000. */
    private static Map<String, MemberState> readStates(DSLContext ctx, List<String> operationIds) {
        var states = new HashMap<String, MemberState>(operationIds.size() * 2);
        for (var chunk : chunks(operationIds)) {
            ctx.select(OPERATION.ID, OPERATION.VERSION, OPERATION.STEP, BINDING.STATUS, BINDING.VERSION,
                            OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY)
                    .from(OPERATION)
                    .leftJoin(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID))
                    .where(OPERATION.ID.in(chunk))
                    .forEach(r -> states.put(r.get(OPERATION.ID), new MemberState(r.get(OPERATION.VERSION),
                            r.get(OPERATION.STEP), r.get(BINDING.STATUS), r.get(BINDING.VERSION), r.get(OPERATION.SUBJECT_ID),
                            r.get(OPERATION.TARGET_KEY))));
        }
        return states;
    }

    /**
     * Applies {@code event} to every member through the transition table, both layers, each row pinned to
     * the version (and binding status) read: one {@code UPDATE operation} and one {@code UPDATE binding}
     * per chunk of 1000 (operation first, binding second, as everywhere), row counts checked, and one
     * multi-row insert each into the two history tables. {@code claimedBy}: the batch a claim assigns;
     * BATCH_REQUEUED clears the assignment (as a single write of it does), other events keep it.
     */
    private static void moveMembers(DSLContext ctx, WorkflowEvent event, List<String> ids, Map<String, MemberState> states,
                                    StepNote note, Optional<Long> claimedBy) {
        if (ids.isEmpty()) {
            return;
        }
        Transition.Moved target = null;
        for (var id : ids) {
            var state = states.get(id);
            if (state == null) {
                throw new PreemptedException("member " + id + " of the batch no longer exists");
            }
            var moved = Transitions.require(state.workflowState(), event);
            if (target == null) {
                target = moved;
            } else if (!target.step().equals(moved.step()) || !target.binding().equals(moved.binding())) {
                throw new IllegalStateException(event + " leads the members of one batch to different states");
            }
        }
        var toStep = target.step();
        var toStatus = target.binding().map(Enum::name).orElseThrow();
        var detail = truncate(note.detail(), 1000);
        for (var chunk : chunks(ids)) {
            var operationVersions = new ArrayList<Row2<String, Long>>(chunk.size());
            var bindingVersions = new ArrayList<Row3<String, String, Long>>(chunk.size());
            var bindingChanges = false;
            for (var id : chunk) {
                var st = states.get(id);
                operationVersions.add(row(id, st.operationVersion()));
                bindingVersions.add(row(id, st.bindingStatus(), st.bindingVersion()));
                bindingChanges |= !toStatus.equals(st.bindingStatus());
            }
            var update = ctx.update(OPERATION.forceIndex("PRIMARY"))
                    .set(OPERATION.STEP, toStep.code())
                    .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                    .set(OPERATION.DETAIL, detail)
                    .set(OPERATION.UPDATED_AT, now());
            if (claimedBy.isPresent()) {
                update = update.set(OPERATION.BATCH_ID, claimedBy.get());
            } else if (Transitions.leavesBatch(event)) {
                update = update.set(OPERATION.BATCH_ID, (Long) null);
            }
            requireRows(update.where(OPERATION.ID.in(chunk))
                    .and(row(OPERATION.ID, OPERATION.VERSION).in(operationVersions))
                    .execute(), chunk.size(), "operations of the batch (" + event + ")");
            if (bindingChanges) {
                requireRows(ctx.update(BINDING.forceIndex("uk_binding_operation"))
                        .set(BINDING.STATUS, toStatus)
                        .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                        .set(BINDING.UPDATED_AT, now())
                        .where(BINDING.OPERATION_ID.in(chunk))
                        .and(row(BINDING.OPERATION_ID, BINDING.STATUS, BINDING.VERSION).in(bindingVersions))
                        .execute(), chunk.size(), "bindings of the batch (" + event + ")");
            } else {
                // the relationship's last write time drives the stuck and reconciliation windows
                requireRows(ctx.update(BINDING.forceIndex("uk_binding_operation"))
                        .set(BINDING.UPDATED_AT, now())
                        .where(BINDING.OPERATION_ID.in(chunk))
                        .and(row(BINDING.OPERATION_ID, BINDING.STATUS, BINDING.VERSION).in(bindingVersions))
                        .execute(), chunk.size(), "bindings of the batch (" + event + ")");
            }

            var opHistory = ctx.insertInto(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.EVENT,
                    OPERATION_HISTORY.FROM_STEP, OPERATION_HISTORY.TO_STEP, OPERATION_HISTORY.FROM_BINDING,
                    OPERATION_HISTORY.TO_BINDING, OPERATION_HISTORY.VERSION, OPERATION_HISTORY.DETAIL,
                    OPERATION_HISTORY.ACTOR);
            for (var id : chunk) {
                var st = states.get(id);
                opHistory = opHistory.values(id, event.name(), st.step(), toStep.code(), st.bindingStatus(), toStatus,
                        st.operationVersion() + 1, detail, note.actor());
            }
            opHistory.execute();

            if (bindingChanges) {
                var bindingHistory = ctx.insertInto(BINDING_HISTORY, BINDING_HISTORY.SUBJECT_ID, BINDING_HISTORY.TARGET_KEY,
                        BINDING_HISTORY.OPERATION_ID, BINDING_HISTORY.EVENT, BINDING_HISTORY.OUTCOME,
                        BINDING_HISTORY.FROM_STATUS, BINDING_HISTORY.TO_STATUS, BINDING_HISTORY.FROM_VERSION,
                        BINDING_HISTORY.TO_VERSION, BINDING_HISTORY.DETAIL, BINDING_HISTORY.ACTOR);
                for (var id : chunk) {
                    var st = states.get(id);
                    bindingHistory = bindingHistory.values(st.subject(), st.target(), id, event.name(), "CHANGED",
                            st.bindingStatus(), toStatus, st.bindingVersion(), st.bindingVersion() + 1, detail, note.actor());
                }
                bindingHistory.execute();
            }
        }
    }

    /**
     * Deletes waiting-set rows by primary key only, still held by {@code batchId} (empty: still
     * waiting). The multi-table form is the one DELETE both MySQL and MariaDB accept an index hint in:
     * on a small table the optimizer would rather scan it whole for a long IN list, and a scanning
     * DELETE locks every row and gap it passes, which would block admissions (I3) until commit.
     */
    private static int deleteRequests(DSLContext ctx, List<Waiting> rows, Optional<Long> batchId) {
        var sql = new StringBuilder("DELETE r FROM merge_batch_request AS r FORCE INDEX (PRIMARY) WHERE r.id IN (");
        var bindings = new ArrayList<Object>(rows.size() + 1);
        for (var i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            bindings.add(rows.get(i).requestId());
        }
        sql.append(')');
        if (batchId.isPresent()) {
            sql.append(" AND r.batch_id = ?");
            bindings.add(batchId.get());
        } else {
            sql.append(" AND r.batch_id IS NULL");
        }
        return ctx.execute(sql.toString(), bindings.toArray());
    }

    private static void insertMembership(DSLContext ctx, long batchId, List<Waiting> members, String action) {
        var insert = ctx.insertInto(MERGE_BATCH_MEMBERSHIP_HISTORY, MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID,
                MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID, MERGE_BATCH_MEMBERSHIP_HISTORY.ACTION);
        for (var m : members) {
            insert = insert.values(batchId, m.operationId(), action);
        }
        insert.execute();
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

    @Override
    public Optional<Batch> find(long batchId) {
        return findIn(dsl, batchId);
    }

    private static Optional<Batch> findIn(DSLContext ctx, long batchId) {
        return ctx.selectFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).fetchOptional()
                .map(b -> toBatch(b, members(ctx, List.of(batchId)).getOrDefault(batchId, List.of())));
    }

    @Override
    public List<Batch> recent(Filter filter, int limit) {
        Condition where = noCondition();
        if (filter.status().isPresent()) {
            where = where.and(MERGE_BATCH.STATUS.eq(code(filter.status().get())));
        }
        if (filter.partition().isPresent()) {
            where = where.and(MERGE_BATCH.PARTITION_KEY.eq(filter.partition().get()));
        }
        return withMembers(dsl.selectFrom(MERGE_BATCH).where(where).orderBy(MERGE_BATCH.ID.desc()).limit(limit).fetch());
    }

    @Override
    public List<Batch> active() {
        return withMembers(dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.in(code(BatchStatus.RUNNING), code(BatchStatus.BLOCKED)))
                .orderBy(MERGE_BATCH.ID).fetch());
    }

    @Override
    public List<Batch> runningOlderThan(Duration age) {
        return withMembers(dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.eq(code(BatchStatus.RUNNING)))
                .and(MERGE_BATCH.CREATED_AT.lt(Sql.ago(age)))
                .orderBy(MERGE_BATCH.CREATED_AT, MERGE_BATCH.ID).fetch());
    }

    private List<Batch> withMembers(List<MergeBatchRecord> batches) {
        var members = members(dsl, batches.stream().map(MergeBatchRecord::getId).toList());
        return batches.stream().map(b -> toBatch(b, members.getOrDefault(b.getId(), List.of()))).toList();
    }

    /** Members by batch from the append-only membership history (it survives settlement). */
    private static Map<Long, List<OperationId>> members(DSLContext ctx, List<Long> batchIds) {
        var members = new LinkedHashMap<Long, List<OperationId>>();
        for (var chunk : chunks(batchIds)) {
            ctx.select(MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID, MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID)
                    .from(MERGE_BATCH_MEMBERSHIP_HISTORY)
                    .where(MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID.in(chunk))
                    .and(MERGE_BATCH_MEMBERSHIP_HISTORY.ACTION.eq(CLAIMED))
                    .orderBy(MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID, MERGE_BATCH_MEMBERSHIP_HISTORY.ID)
                    .forEach((Record2<Long, String> r) -> members.computeIfAbsent(r.value1(), k -> new ArrayList<>())
                            .add(OperationId.of(r.value2())));
        }
        return members;
    }

    @Override
    public void recordMergeRequest(long batchId, MergeRequestRef mr) {
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
     * The guarded batch write comes first, so of two settlers the second rolls back whole. Ending
     * FAILED also releases the members in the same transaction (design 3.7: their waiting-set rows
     * are deleted, the membership history keeps them), so they can be admitted again.
     */
    @Override
    public void changeStatus(long batchId, BatchStatus from, BatchStatus to, String detail) {
        GapLockFree.transaction(dsl, ctx -> {
            guardedStatus(ctx, batchId, from, to, detail);
            if (to == BatchStatus.FAILED) {
                release(ctx, batchId, claimedRows(ctx, batchId));
            }
        });
    }

    /** Deletes the waiting-set rows of members that leave batch {@code batchId} and records them RELEASED. */
    private static void release(DSLContext ctx, long batchId, List<Waiting> released) {
        for (var chunk : chunks(released)) {
            requireRows(deleteRequests(ctx, chunk, Optional.of(batchId)), chunk.size(),
                    "releasing members of batch " + batchId);
            insertMembership(ctx, batchId, chunk, RELEASED);
        }
    }

    /**
     * Design 3.3 and 3.7 in one transaction: the guarded batch write first (a second settler finds
     * nothing in {@code from} and rolls back whole), then the members through the transition table
     * (operation rows, then binding rows, pinned to the versions read), then their waiting-set rows
     * (requeued in place, keeping their admission time, or deleted) and the membership history. The
     * plan must name exactly the batch's claimed members.
     */
    @Override
    public Batch settle(long batchId, BatchStatus from, Resolution resolution, StepNote note) {
        var to = resolution instanceof Resolution.Merged ? BatchStatus.SUCCEEDED : BatchStatus.FAILED;
        Transitions.requireBatch(from, to);
        return GapLockFree.transactionResult(dsl, ctx -> {
            guardedStatus(ctx, batchId, from, to, note.detail());
            var claimed = claimedRows(ctx, batchId);
            var settlement = Settling.of(batchId, claimed, resolution);
            var states = readStates(ctx, claimed.stream().map(Waiting::operationId).toList());
            settlement.events().forEach((event, ids) -> moveMembers(ctx, event, ids, states, note, Optional.empty()));
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
                settled.mergeRequest().ifPresent(mr -> JooqOperations.recordMergeOrder(ctx, mr.project(), mr.iid()));
            }
            return settled;
        });
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

    @Override
    public Map<OperationId, Integer> transientFailures(long batchId) {
        var counts = new LinkedHashMap<OperationId, Integer>();
        dsl.select(MERGE_BATCH_REQUEST.OPERATION_ID, MERGE_BATCH_REQUEST.TRANSIENT_FAILURES)
                .from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_batch"))
                .where(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                .orderBy(MERGE_BATCH_REQUEST.ID)
                .forEach(r -> counts.put(OperationId.of(r.value1()), r.value2()));
        return counts;
    }

    /** RUNNING -> BLOCKED, the guarded batch write first, then every member BATCH_BLOCKED. */
    @Override
    public Batch block(long batchId, StepNote note) {
        return GapLockFree.transactionResult(dsl, ctx -> {
            guardedStatus(ctx, batchId, BatchStatus.RUNNING, BatchStatus.BLOCKED, note.detail());
            var ids = claimedRows(ctx, batchId).stream().map(Waiting::operationId).toList();
            moveMembers(ctx, WorkflowEvent.BATCH_BLOCKED, ids, readStates(ctx, ids), note, Optional.empty());
            return findIn(ctx, batchId).orElseThrow();
        });
    }

    private static void guardedStatus(DSLContext ctx, long batchId, BatchStatus from, BatchStatus to, String detail) {
        Transitions.requireBatch(from, to);
        requireOneRow(ctx.update(MERGE_BATCH)
                .set(MERGE_BATCH.STATUS, code(to))
                .set(MERGE_BATCH.VERSION, MERGE_BATCH.VERSION.plus(1))
                .set(MERGE_BATCH.DETAIL, truncate(detail, 1000))
                .set(MERGE_BATCH.UPDATED_AT, now())
                .where(MERGE_BATCH.ID.eq(batchId))
                .and(MERGE_BATCH.STATUS.eq(code(from)))
                .execute(), "batch " + batchId + " " + from + " -> " + to);
    }

    /**
     * The batch's claimed waiting-set rows, in claim order. The index on {@code batch_id} is forced: the
     * table holds mostly waiting rows (NULL) and one claimed batch per partition, so its statistics
     * see few distinct values and would rather scan the primary key.
     */
    private static List<Waiting> claimedRows(DSLContext ctx, long batchId) {
        return ctx.select(MERGE_BATCH_REQUEST.ID, MERGE_BATCH_REQUEST.OPERATION_ID)
                .from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_batch"))
                .where(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                .orderBy(MERGE_BATCH_REQUEST.ID)
                .fetch(r -> new Waiting(r.value1(), r.value2()));
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
                    events.put(WorkflowEvent.BATCH_MERGED, claimed.stream().map(Waiting::operationId).toList());
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

    static byte code(BatchStatus status) {
        return (byte) status.code();
    }

    private static Batch toBatch(MergeBatchRecord b, List<OperationId> members) {
        Optional<MergeRequestRef> mr = b.getMrIid() == null ? Optional.empty()
                : Optional.of(new MergeRequestRef(b.getMrProject(), b.getMrIid(), b.getMrBranch(), b.getMrWebUrl()));
        return new Batch(b.getId(), b.getPartitionKey(),
                BatchStatus.fromCode(b.getStatus()).orElseThrow(() -> new IllegalStateException("unknown batch status " + b.getStatus())),
                b.getDepth(), List.copyOf(members), mr, b.getDetail(), instant(b.getCreatedAt()), instant(b.getUpdatedAt()));
    }
}
