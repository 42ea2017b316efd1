package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.jooq.Tables.CALLBACK_DELIVERY;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK_OPERATION;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** {@link CallbackInbox} on {@code callback_delivery}, {@code deploy_callback} and {@code deploy_callback_operation}. */
final class JooqCallbackInbox implements CallbackInbox {

    private final DSLContext dsl;

    JooqCallbackInbox(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public boolean firstDelivery(String source, String deliveryId) {
        try {
            dsl.insertInto(CALLBACK_DELIVERY)
                    .set(CALLBACK_DELIVERY.SOURCE, source)
                    .set(CALLBACK_DELIVERY.DELIVERY_ID, deliveryId)
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
    public void forget(String source, String deliveryId) {
        dsl.deleteFrom(CALLBACK_DELIVERY)
                .where(CALLBACK_DELIVERY.SOURCE.eq(source)).and(CALLBACK_DELIVERY.DELIVERY_ID.eq(deliveryId))
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
                        .set(DEPLOY_CALLBACK.STATUS, status)
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

    @Override
    public OptionalLong largestDeployedIid(String project) {
        var max = dsl.select(DSL.max(DEPLOY_CALLBACK.MR_IID)).from(DEPLOY_CALLBACK)
                .where(DEPLOY_CALLBACK.PROJECT.eq(project)).fetchOne().value1();
        return max == null ? OptionalLong.empty() : OptionalLong.of(max);
    }

    @Override
    public Set<OperationId> deployedOperations(Collection<OperationId> ids) {
        var found = new HashSet<OperationId>();
        for (var chunk : chunks(ids.stream().map(OperationId::value).distinct().toList())) {
            dsl.selectDistinct(DEPLOY_CALLBACK_OPERATION.OPERATION_ID).from(DEPLOY_CALLBACK_OPERATION)
                    .where(DEPLOY_CALLBACK_OPERATION.OPERATION_ID.in(chunk))
                    .forEach(r -> found.add(OperationId.of(r.value1())));
        }
        return Set.copyOf(found);
    }
}
