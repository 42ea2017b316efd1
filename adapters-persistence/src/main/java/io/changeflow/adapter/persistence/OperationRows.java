package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;

import io.changeflow.adapter.persistence.jooq.tables.records.BindingRecord;
import io.changeflow.adapter.persistence.jooq.tables.records.OperationHistoryRecord;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SelectOnConditionStep;

/**
 * The rows of {@code operation}, {@code binding} and their history tables as every part of the adapter reads and
 * appends them: the operation select with its binding status and batch merge request, the mappings to domain
 * values, and the single-row history inserts.
 */
final class OperationRows {

    private OperationRows() {
    }

    /** Operations with their binding status (while they own it) and, for batch members, the batch's MR. */
    static SelectOnConditionStep<Record> selectOperations(DSLContext ctx) {
        return ctx.select(OPERATION.fields())
                .select(BINDING.STATUS, MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID, MERGE_BATCH.MR_BRANCH,
                        MERGE_BATCH.MR_WEB_URL)
                .from(OPERATION)
                .leftJoin(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID))
                .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID));
    }

    static Optional<Operation> findIn(DSLContext ctx, String id) {
        return selectOperations(ctx).where(OPERATION.ID.eq(id)).fetchOptional().map(OperationRows::toOperation);
    }

    static Operation toOperation(Record r) {
        Optional<MergeRequestRef> mr = Optional.empty();
        if (r.get(OPERATION.MR_IID) != null) {
            mr = Optional.of(new MergeRequestRef(r.get(OPERATION.MR_PROJECT), r.get(OPERATION.MR_IID),
                    r.get(OPERATION.MR_BRANCH), r.get(OPERATION.MR_WEB_URL)));
        } else if (r.get(MERGE_BATCH.MR_IID) != null) {
            mr = Optional.of(new MergeRequestRef(r.get(MERGE_BATCH.MR_PROJECT), r.get(MERGE_BATCH.MR_IID),
                    r.get(MERGE_BATCH.MR_BRANCH), r.get(MERGE_BATCH.MR_WEB_URL)));
        }
        return new Operation(
                OperationId.of(r.get(OPERATION.ID)),
                r.get(OPERATION.REQUESTER),
                SubjectId.of(r.get(OPERATION.SUBJECT_ID)),
                TargetKey.of(r.get(OPERATION.TARGET_KEY)),
                r.get(OPERATION.REASON),
                Optional.ofNullable(instant(r.get(OPERATION.EXPIRES_AT))),
                StepOrder.valueOf(r.get(OPERATION.STEP_ORDER)),
                step(r.get(OPERATION.STEP)),
                r.get(OPERATION.VERSION),
                Optional.ofNullable(r.get(BINDING.STATUS)).map(OperationRows::status),
                mr,
                Optional.ofNullable(r.get(OPERATION.APPROVAL_TICKET)),
                Optional.ofNullable(r.get(OPERATION.BATCH_ID)),
                r.get(OPERATION.DETAIL),
                instant(r.get(OPERATION.CREATED_AT)),
                instant(r.get(OPERATION.UPDATED_AT)),
                kind(r.get(OPERATION.CHANGE_KIND)),
                Optional.ofNullable(r.get(OPERATION.REMOVES_OPERATION_ID)).map(OperationId::of),
                Optional.ofNullable(r.get(OPERATION.DURATION_SECONDS)).map(java.time.Duration::ofSeconds));
    }

    static Binding toBinding(BindingRecord b) {
        return new Binding(SubjectId.of(b.getSubjectId()), TargetKey.of(b.getTargetKey()), OperationId.of(b.getOperationId()),
                status(b.getStatus()), b.getVersion(), Optional.ofNullable(instant(b.getExpiresAt())),
                instant(b.getUpdatedAt()));
    }

    static HistoryEntry toHistory(OperationHistoryRecord h) {
        return new HistoryEntry(OperationId.of(h.getOperationId()), WorkflowEvent.valueOf(h.getEvent()),
                Optional.ofNullable(h.getFromStep()).map(OperationRows::step), step(h.getToStep()),
                Optional.ofNullable(h.getFromBinding()).map(OperationRows::status),
                Optional.ofNullable(h.getToBinding()).map(OperationRows::status),
                h.getDetail(), h.getActor(), instant(h.getCreatedAt()));
    }

    /** A stored kind (rows written before issue 18 hold the column's default, GRANT). */
    static ChangeKind kind(String stored) {
        return stored == null ? ChangeKind.GRANT : ChangeKind.valueOf(stored);
    }

    static StepStatus step(Integer code) {
        return StepStatus.fromCode(code).orElseThrow(() -> new IllegalStateException("unknown step code " + code));
    }

    static BindingStatus status(String name) {
        return BindingStatus.valueOf(name);
    }

    static void insertOperationHistory(DSLContext ctx, String operationId, WorkflowEvent event, StepStatus fromStep,
                                       StepStatus toStep, String fromBinding, String toBinding, long version,
                                       String detail, String actor) {
        ctx.insertInto(OPERATION_HISTORY)
                .set(OPERATION_HISTORY.OPERATION_ID, operationId)
                .set(OPERATION_HISTORY.EVENT, event.name())
                .set(OPERATION_HISTORY.FROM_STEP, fromStep == null ? null : fromStep.code())
                .set(OPERATION_HISTORY.TO_STEP, toStep.code())
                .set(OPERATION_HISTORY.FROM_BINDING, fromBinding)
                .set(OPERATION_HISTORY.TO_BINDING, toBinding)
                .set(OPERATION_HISTORY.VERSION, version)
                .set(OPERATION_HISTORY.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                .set(OPERATION_HISTORY.ACTOR, truncate(actor, Sql.ACTOR_MAX))
                .execute();
    }

    static void insertBindingHistory(DSLContext ctx, String subject, String target, String operationId,
                                     WorkflowEvent event, String outcome, String fromStatus, String toStatus,
                                     Long fromVersion, Long toVersion, String detail, String actor) {
        ctx.insertInto(BINDING_HISTORY)
                .set(BINDING_HISTORY.SUBJECT_ID, subject)
                .set(BINDING_HISTORY.TARGET_KEY, target)
                .set(BINDING_HISTORY.OPERATION_ID, operationId)
                .set(BINDING_HISTORY.EVENT, event.name())
                .set(BINDING_HISTORY.OUTCOME, outcome)
                .set(BINDING_HISTORY.FROM_STATUS, fromStatus)
                .set(BINDING_HISTORY.TO_STATUS, toStatus)
                .set(BINDING_HISTORY.FROM_VERSION, fromVersion)
                .set(BINDING_HISTORY.TO_VERSION, toVersion)
                .set(BINDING_HISTORY.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                .set(BINDING_HISTORY.ACTOR, truncate(actor, Sql.ACTOR_MAX))
                .execute();
    }
}
