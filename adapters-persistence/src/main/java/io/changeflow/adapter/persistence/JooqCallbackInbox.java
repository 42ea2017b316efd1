package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.jooq.Tables.CALLBACK_DELIVERY;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK_OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Select;
import org.jooq.impl.DSL;

/**
 * {@link CallbackInbox} on {@code callback_delivery}, {@code deploy_callback} and {@code deploy_callback_operation}.
 * Every deploy report is stored with its status; the reads that say "deployed" (the watermark, the named
 * operations) take only {@link CallbackInbox#IN_EFFECT} rows, the watermark by the index
 * {@code (project, status, mr_iid)} (V5).
 */
final class JooqCallbackInbox implements CallbackInbox {

    /** The length of {@code deploy_callback.status}: a longer status is stored cut (it is for the record only). */
    static final int STATUS_LENGTH = 32;

    private final DSLContext dsl;

    JooqCallbackInbox(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public boolean firstDelivery(String source, String deliveryId) {
        return Sql.insertedUnlessDuplicate(dsl.insertInto(CALLBACK_DELIVERY)
                .set(CALLBACK_DELIVERY.SOURCE, source)
                .set(CALLBACK_DELIVERY.DELIVERY_ID, deliveryId));
    }

    @Override
    public void forget(String source, String deliveryId) {
        dsl.deleteFrom(CALLBACK_DELIVERY)
                .where(CALLBACK_DELIVERY.SOURCE.eq(source)).and(CALLBACK_DELIVERY.DELIVERY_ID.eq(deliveryId))
                .execute();
    }

    @Override
    public int forgetDeliveries(String source, java.time.Duration olderThan, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("forget at least one delivery");
        }
        return dsl.deleteFrom(CALLBACK_DELIVERY)
                .where(CALLBACK_DELIVERY.SOURCE.eq(source))
                .and(CALLBACK_DELIVERY.CREATED_AT.lt(Sql.ago(olderThan)))
                .orderBy(CALLBACK_DELIVERY.CREATED_AT)
                .limit(limit)
                .execute();
    }

    @Override
    public void recordDeploy(String deliveryId, String project, long mrIid, String status, List<OperationId> operationIds) {
        dsl.transaction(tx -> {
            var ctx = tx.dsl();
            long callbackId;
            try {
                callbackId = ctx.insertInto(DEPLOY_CALLBACK)
                        .set(DEPLOY_CALLBACK.DELIVERY_ID, deliveryId)
                        .set(DEPLOY_CALLBACK.PROJECT, project)
                        .set(DEPLOY_CALLBACK.MR_IID, mrIid)
                        .set(DEPLOY_CALLBACK.STATUS, storable(status))
                        .returningResult(DEPLOY_CALLBACK.ID)
                        .fetchOne()
                        .value1();
            } catch (RuntimeException e) {
                if (Sql.isDuplicateKey(e)) {
                    return;
                }
                throw e;
            }
            var distinct = operationIds.stream().map(OperationId::value).distinct().toList();
            for (var chunk : chunks(distinct)) {
                var insert = ctx.insertInto(DEPLOY_CALLBACK_OPERATION, DEPLOY_CALLBACK_OPERATION.OPERATION_ID,
                        DEPLOY_CALLBACK_OPERATION.DEPLOY_CALLBACK_ID);
                for (var id : chunk) {
                    insert = insert.values(id, callbackId);
                }
                insert.execute();
            }
        });
    }

    /** {@code status} cut to the column's length in characters (code points), never splitting one. */
    static String storable(String status) {
        Objects.requireNonNull(status, "status");
        if (status.codePointCount(0, status.length()) <= STATUS_LENGTH) {
            return status;
        }
        return status.substring(0, status.offsetByCodePoints(0, STATUS_LENGTH));
    }

    @Override
    public OptionalLong largestDeployedIid(String project) {
        var max = dsl.select(DSL.max(DEPLOY_CALLBACK.MR_IID)).from(DEPLOY_CALLBACK)
                .where(DEPLOY_CALLBACK.PROJECT.eq(project)).and(DEPLOY_CALLBACK.STATUS.eq(IN_EFFECT))
                .fetchOne().value1();
        return max == null ? OptionalLong.empty() : OptionalLong.of(max);
    }

    /** Reads {@code (project, status, mr_iid)} by its index (V5), one statement per chunk of 1000 merge requests. */
    @Override
    public Set<MergeRequestRef> reportedWithoutOperationIds(Collection<MergeRequestRef> mergeRequests) {
        var reported = new HashSet<List<Object>>();
        var distinct = mergeRequests.stream().map(mr -> List.<Object>of(mr.project(), mr.iid())).distinct().toList();
        for (var chunk : chunks(distinct)) {
            var keys = chunk.stream().map(k -> DSL.row((String) k.get(0), IN_EFFECT, (Long) k.get(1))).toList();
            dsl.selectDistinct(DEPLOY_CALLBACK.PROJECT, DEPLOY_CALLBACK.MR_IID).from(DEPLOY_CALLBACK)
                    .where(DSL.row(DEPLOY_CALLBACK.PROJECT, DEPLOY_CALLBACK.STATUS, DEPLOY_CALLBACK.MR_IID).in(keys))
                    .andNotExists(namesOperations())
                    .forEach(r -> reported.add(List.of(r.value1(), r.value2())));
        }
        return mergeRequests.stream().filter(mr -> reported.contains(List.<Object>of(mr.project(), mr.iid())))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Reads {@code merge_order (project, seq)} backwards from the newest merge and stops at the first merge request
     * an in-effect report named (an index lookup on {@code (project, status, mr_iid)} each): no sort, and no
     * further back than {@code notBelow}.
     */
    @Override
    public OptionalLong latestReportedMergeOrder(String project, long notBelow, Reports reports) {
        var report = DSL.selectOne().from(DEPLOY_CALLBACK)
                .where(DEPLOY_CALLBACK.PROJECT.eq(MERGE_ORDER.PROJECT))
                .and(DEPLOY_CALLBACK.STATUS.eq(IN_EFFECT))
                .and(DEPLOY_CALLBACK.MR_IID.eq(MERGE_ORDER.MR_IID));
        var counted = reports == Reports.ALL ? report : report.andNotExists(namesOperations());
        return dsl.select(MERGE_ORDER.SEQ).from(MERGE_ORDER.forceIndex("idx_merge_order_project_seq"))
                .where(MERGE_ORDER.PROJECT.eq(project))
                .and(MERGE_ORDER.SEQ.ge(notBelow))
                .andExists(counted)
                .orderBy(MERGE_ORDER.SEQ.desc())
                .limit(1)
                .fetchOptional(MERGE_ORDER.SEQ)
                .map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    /** The report ({@code deploy_callback} of the outer query) named at least one operation. */
    private static Select<?> namesOperations() {
        return DSL.selectOne().from(DEPLOY_CALLBACK_OPERATION)
                .where(DEPLOY_CALLBACK_OPERATION.DEPLOY_CALLBACK_ID.eq(DEPLOY_CALLBACK.ID));
    }

    @Override
    public Set<OperationId> deployedOperations(Collection<OperationId> ids) {
        var found = new HashSet<OperationId>();
        for (var chunk : chunks(ids.stream().map(OperationId::value).distinct().toList())) {
            dsl.selectDistinct(DEPLOY_CALLBACK_OPERATION.OPERATION_ID).from(DEPLOY_CALLBACK_OPERATION)
                    .join(DEPLOY_CALLBACK).on(DEPLOY_CALLBACK.ID.eq(DEPLOY_CALLBACK_OPERATION.DEPLOY_CALLBACK_ID))
                    .where(DEPLOY_CALLBACK_OPERATION.OPERATION_ID.in(chunk))
                    .and(DEPLOY_CALLBACK.STATUS.eq(IN_EFFECT))
                    .forEach(r -> found.add(OperationId.of(r.value1())));
        }
        return Set.copyOf(found);
    }
}
