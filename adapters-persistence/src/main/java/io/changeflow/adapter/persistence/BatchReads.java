package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.BatchRows.CLAIMED;
import static io.changeflow.adapter.persistence.BatchRows.code;
import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_MEMBERSHIP_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static org.jooq.impl.DSL.noCondition;

import io.changeflow.adapter.persistence.jooq.tables.records.MergeBatchRecord;
import io.changeflow.application.port.out.Batches.Filter;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record2;

/**
 * The reads of {@link JooqBatches}: batches with their members, which come from the append-only membership
 * history (it survives settlement), and the members' transient failure counts.
 */
final class BatchReads {

    private BatchReads() {
    }

    static Optional<Batch> findIn(DSLContext ctx, long batchId) {
        return ctx.selectFrom(MERGE_BATCH).where(MERGE_BATCH.ID.eq(batchId)).fetchOptional()
                .map(b -> toBatch(b, members(ctx, List.of(batchId)).getOrDefault(batchId, List.of())));
    }

    static List<Batch> recent(DSLContext dsl, Filter filter, int limit) {
        Condition where = noCondition();
        if (filter.status().isPresent()) {
            where = where.and(MERGE_BATCH.STATUS.eq(code(filter.status().get())));
        }
        if (filter.partition().isPresent()) {
            where = where.and(MERGE_BATCH.PARTITION_KEY.eq(filter.partition().get()));
        }
        return withMembers(dsl, dsl.selectFrom(MERGE_BATCH).where(where).orderBy(MERGE_BATCH.ID.desc()).limit(limit).fetch());
    }

    static List<Batch> active(DSLContext dsl) {
        return withMembers(dsl, dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.in(code(BatchStatus.RUNNING), code(BatchStatus.BLOCKED)))
                .orderBy(MERGE_BATCH.ID).fetch());
    }

    static List<Batch> runningOlderThan(DSLContext dsl, Duration age) {
        return withMembers(dsl, dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.eq(code(BatchStatus.RUNNING)))
                .and(MERGE_BATCH.CREATED_AT.lt(Sql.ago(age)))
                .orderBy(MERGE_BATCH.CREATED_AT, MERGE_BATCH.ID).fetch());
    }

    static List<Batch> activeOlderThan(DSLContext dsl, Duration age) {
        return withMembers(dsl, dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.in(code(BatchStatus.RUNNING), code(BatchStatus.BLOCKED)))
                .and(MERGE_BATCH.CREATED_AT.lt(Sql.ago(age)))
                .orderBy(MERGE_BATCH.CREATED_AT, MERGE_BATCH.ID).fetch());
    }

    static List<Batch> blockedOlderThan(DSLContext dsl, Duration age) {
        return withMembers(dsl, dsl.selectFrom(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.eq(code(BatchStatus.BLOCKED)))
                .and(MERGE_BATCH.UPDATED_AT.lt(Sql.ago(age)))
                .orderBy(MERGE_BATCH.UPDATED_AT, MERGE_BATCH.ID).fetch());
    }

    static Map<OperationId, Integer> transientFailures(DSLContext dsl, long batchId) {
        var counts = new LinkedHashMap<OperationId, Integer>();
        dsl.select(MERGE_BATCH_REQUEST.OPERATION_ID, MERGE_BATCH_REQUEST.TRANSIENT_FAILURES)
                .from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_batch"))
                .where(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                .orderBy(MERGE_BATCH_REQUEST.ID)
                .forEach(r -> counts.put(OperationId.of(r.value1()), r.value2()));
        return counts;
    }

    private static List<Batch> withMembers(DSLContext dsl, List<MergeBatchRecord> batches) {
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

    static Batch toBatch(MergeBatchRecord b, List<OperationId> members) {
        Optional<MergeRequestRef> mr = b.getMrIid() == null ? Optional.empty()
                : Optional.of(new MergeRequestRef(b.getMrProject(), b.getMrIid(), b.getMrBranch(), b.getMrWebUrl()));
        return new Batch(b.getId(), b.getPartitionKey(),
                BatchStatus.fromCode(b.getStatus()).orElseThrow(() -> new IllegalStateException("unknown batch status " + b.getStatus())),
                b.getDepth(), List.copyOf(members), mr, b.getDetail(), instant(b.getCreatedAt()), instant(b.getUpdatedAt()));
    }
}
