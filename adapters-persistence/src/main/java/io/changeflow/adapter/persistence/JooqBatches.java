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
import static org.jooq.impl.DSL.row;

import io.changeflow.adapter.persistence.jooq.tables.records.MergeBatchRecord;
import io.changeflow.application.port.out.Batches;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
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

/**
 * {@link Batches} on {@code merge_batch} (the generated {@code active_slot} with its unique index
 * is the single active batch per partition, I1) and {@code merge_batch_request} (the waiting set,
 * {@code batch_id IS NULL}).
 */
final class JooqBatches implements Batches {

    static final String CLAIMED = "CLAIMED";
    static final String RELEASED = "RELEASED";
    static final String DROPPED = "DROPPED";

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
        return dsl.fetchExists(dsl.selectOne().from(MERGE_BATCH_REQUEST).where(waiting(partition)));
    }

    /** Waiting, and admitted before this millisecond of the database clock. */
    static Condition waiting(String partition) {
        return MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                .and(MERGE_BATCH_REQUEST.CREATED_AT.lt(now()));
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
            return dsl.transactionResult(tx -> claimInTransaction(tx.dsl(), partition, maxRequests));
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

        var states = readStates(ctx, pending);
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
            requireRows(ctx.deleteFrom(MERGE_BATCH_REQUEST)
                    .where(MERGE_BATCH_REQUEST.ID.in(chunk.stream().map(Waiting::requestId).toList()))
                    .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                    .execute(), chunk.size(), "dropping requests that no longer wait");
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
        moveMembers(ctx, batchId, eligible, states);
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

    private static Map<String, MemberState> readStates(DSLContext ctx, List<Waiting> pending) {
        var states = new HashMap<String, MemberState>(pending.size() * 2);
        for (var chunk : chunks(pending)) {
            ctx.select(OPERATION.ID, OPERATION.VERSION, OPERATION.STEP, BINDING.STATUS, BINDING.VERSION,
                            OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY)
                    .from(OPERATION)
                    .leftJoin(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID))
                    .where(OPERATION.ID.in(chunk.stream().map(Waiting::operationId).toList()))
                    .forEach(r -> states.put(r.get(OPERATION.ID), new MemberState(r.get(OPERATION.VERSION),
                            r.get(OPERATION.STEP), r.get(BINDING.STATUS), r.get(BINDING.VERSION), r.get(OPERATION.SUBJECT_ID),
                            r.get(OPERATION.TARGET_KEY))));
        }
        return states;
    }

    /** Every member goes BATCH_WAITING -> BATCHED (step BATCH_CLAIMED), both layers, pinned to the versions read. */
    private static void moveMembers(DSLContext ctx, long batchId, List<Waiting> members, Map<String, MemberState> states) {
        var note = CLAIM_NOTE + batchId;
        var toStep = StepStatus.BATCH_CLAIMED;
        var toStatus = BindingStatus.BATCHED.name();
        for (var chunk : chunks(members)) {
            var ids = chunk.stream().map(Waiting::operationId).toList();
            var operationVersions = new ArrayList<Row2<String, Long>>(chunk.size());
            var bindingVersions = new ArrayList<Row2<String, Long>>(chunk.size());
            for (var id : ids) {
                var s = states.get(id);
                var moved = (Transition.Moved) Transitions.require(s.workflowState(), WorkflowEvent.BATCH_CLAIMED);
                if (!toStep.equals(moved.step()) || !moved.binding().map(Enum::name).orElse("").equals(toStatus)) {
                    throw new IllegalStateException("the transition table no longer moves BATCH_CLAIMED to BATCHED");
                }
                operationVersions.add(row(id, s.operationVersion()));
                bindingVersions.add(row(id, s.bindingVersion()));
            }
            requireRows(ctx.update(OPERATION.forceIndex("PRIMARY"))
                    .set(OPERATION.STEP, toStep.code())
                    .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                    .set(OPERATION.BATCH_ID, batchId)
                    .set(OPERATION.DETAIL, note)
                    .set(OPERATION.UPDATED_AT, now())
                    .where(OPERATION.ID.in(ids))
                    .and(row(OPERATION.ID, OPERATION.VERSION).in(operationVersions))
                    .execute(), chunk.size(), "operations claimed by batch " + batchId);
            requireRows(ctx.update(BINDING.forceIndex("uk_binding_operation"))
                    .set(BINDING.STATUS, toStatus)
                    .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                    .set(BINDING.UPDATED_AT, now())
                    .where(BINDING.OPERATION_ID.in(ids))
                    .and(BINDING.STATUS.eq(BindingStatus.BATCH_WAITING.name()))
                    .and(row(BINDING.OPERATION_ID, BINDING.VERSION).in(bindingVersions))
                    .execute(), chunk.size(), "bindings claimed by batch " + batchId);

            var opHistory = ctx.insertInto(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.EVENT,
                    OPERATION_HISTORY.FROM_STEP, OPERATION_HISTORY.TO_STEP, OPERATION_HISTORY.FROM_BINDING,
                    OPERATION_HISTORY.TO_BINDING, OPERATION_HISTORY.VERSION, OPERATION_HISTORY.DETAIL,
                    OPERATION_HISTORY.ACTOR);
            for (var id : ids) {
                var s = states.get(id);
                opHistory = opHistory.values(id, WorkflowEvent.BATCH_CLAIMED.name(), s.step(), toStep.code(),
                        s.bindingStatus(), toStatus, s.operationVersion() + 1, note, "system");
            }
            opHistory.execute();

            var bindingHistory = ctx.insertInto(BINDING_HISTORY, BINDING_HISTORY.SUBJECT_ID, BINDING_HISTORY.TARGET_KEY,
                    BINDING_HISTORY.OPERATION_ID, BINDING_HISTORY.EVENT, BINDING_HISTORY.OUTCOME,
                    BINDING_HISTORY.FROM_STATUS, BINDING_HISTORY.TO_STATUS, BINDING_HISTORY.FROM_VERSION,
                    BINDING_HISTORY.TO_VERSION, BINDING_HISTORY.DETAIL, BINDING_HISTORY.ACTOR);
            for (var id : ids) {
                var s = states.get(id);
                bindingHistory = bindingHistory.values(s.subject(), s.target(), id,
                        WorkflowEvent.BATCH_CLAIMED.name(), "CHANGED", s.bindingStatus(), toStatus, s.bindingVersion(),
                        s.bindingVersion() + 1, note, "system");
            }
            bindingHistory.execute();
        }
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
        return dsl.selectFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).fetchOptional()
                .map(b -> toBatch(b, members(List.of(batchId)).getOrDefault(batchId, List.of())));
    }

    @Override
    public List<Batch> recent(int limit) {
        return withMembers(dsl.selectFrom(MERGE_BATCH).orderBy(MERGE_BATCH.ID.desc()).limit(limit).fetch());
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
        var members = members(batches.stream().map(MergeBatchRecord::getId).toList());
        return batches.stream().map(b -> toBatch(b, members.getOrDefault(b.getId(), List.of()))).toList();
    }

    /** Members by batch from the append-only membership history (it survives settlement). */
    private Map<Long, List<OperationId>> members(List<Long> batchIds) {
        var members = new LinkedHashMap<Long, List<OperationId>>();
        for (var chunk : chunks(batchIds)) {
            dsl.select(MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID, MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID)
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
        Transitions.requireBatch(from, to);
        dsl.transaction(tx -> {
            var ctx = tx.dsl();
            requireOneRow(ctx.update(MERGE_BATCH)
                    .set(MERGE_BATCH.STATUS, code(to))
                    .set(MERGE_BATCH.VERSION, MERGE_BATCH.VERSION.plus(1))
                    .set(MERGE_BATCH.DETAIL, truncate(detail, 1000))
                    .set(MERGE_BATCH.UPDATED_AT, now())
                    .where(MERGE_BATCH.ID.eq(batchId))
                    .and(MERGE_BATCH.STATUS.eq(code(from)))
                    .execute(), "batch " + batchId + " " + from + " -> " + to);
            if (to == BatchStatus.FAILED) {
                var released = ctx.select(MERGE_BATCH_REQUEST.ID, MERGE_BATCH_REQUEST.OPERATION_ID)
                        .from(MERGE_BATCH_REQUEST).where(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                        .fetch(r -> new Waiting(r.value1(), r.value2()));
                for (var chunk : chunks(released)) {
                    requireRows(ctx.deleteFrom(MERGE_BATCH_REQUEST)
                            .where(MERGE_BATCH_REQUEST.ID.in(chunk.stream().map(Waiting::requestId).toList()))
                            .and(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                            .execute(), chunk.size(), "releasing members of batch " + batchId);
                    insertMembership(ctx, batchId, chunk, RELEASED);
                }
            }
        });
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
