package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.insertBindingHistory;
import static io.changeflow.adapter.persistence.OperationRows.insertOperationHistory;
import static io.changeflow.adapter.persistence.OperationRows.kind;
import static io.changeflow.adapter.persistence.OperationRows.step;
import static io.changeflow.adapter.persistence.OperationRows.toBinding;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.TransitionWrites.lockBinding;
import static io.changeflow.adapter.persistence.TransitionWrites.lockOperation;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.adapter.persistence.jooq.tables.records.OperationRecord;
import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The writes of a grant's later life (issue 18) for {@link JooqOperations}: a removal taking the row over, and a
 * renewal that fell through handing it back. Each runs inside the caller's transaction, with the same lock order
 * (operation rows first, the binding row last) and guarded writes pinned to the state read.
 */
final class GrantLifecycleWrites {

    private GrantLifecycleWrites() {
    }

    /** The transaction of {@link JooqOperations#openRemoval}. */
    static OpenResult openRemoval(DSLContext ctx, Binding read, OperationId id, WorkflowEvent event, String actor,
                                  String detail) {
        var owner = lockOperation(ctx, read.operationId().value())
                .orElseThrow(() -> new PreemptedException("the owner " + read.operationId() + " no longer exists"));
        var row = lockBinding(ctx, read.operationId().value())
                .filter(b -> b.getStatus().equals(read.status().name()) && b.getVersion() == read.version())
                .orElseThrow(() -> new PreemptedException(read.subject() + "/" + read.target() + " changed since it was read"));
        var moved = switch (Transitions.check(new TransitionWrites.Locked(owner, Optional.of(row)).state(), event)) {
            case Transition.Moved m -> m;
            case Transition.Refused refused -> {
                insertBindingHistory(ctx, row.getSubjectId(), row.getTargetKey(), id.value(), event, "BLOCKED",
                        row.getStatus(), row.getStatus(), row.getVersion(), row.getVersion(), refused.reason(), actor);
                yield null;
            }
        };
        if (moved == null) {
            return new OpenResult.Blocked(toBinding(row));
        }
        var toStatus = moved.binding().orElseThrow().name();
        try {
            ctx.insertInto(OPERATION)
                    .set(OPERATION.ID, id.value())
                    .set(OPERATION.REQUESTER, truncate(actor, Sql.ACTOR_MAX))
                    .set(OPERATION.SUBJECT_ID, row.getSubjectId())
                    .set(OPERATION.TARGET_KEY, row.getTargetKey())
                    .set(OPERATION.REASON, truncate(detail, Sql.DETAIL_MAX))
                    .set(OPERATION.EXPIRES_AT, Sql.utcValue(Sql.instant(row.getExpiresAt())))
                    .set(OPERATION.STEP_ORDER, StepOrder.APPROVE_FIRST.name())
                    .set(OPERATION.STEP, moved.step().code())
                    .set(OPERATION.VERSION, 1L)
                    .set(OPERATION.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                    .set(OPERATION.CHANGE_KIND, moved.to().kind().name())
                    .set(OPERATION.REMOVES_OPERATION_ID, removedGrant(owner))
                    .execute();
        } catch (RuntimeException e) {
            if (Sql.isDuplicateKey(e)) {
                throw new PreemptedException("operation " + id + " already exists");
            }
            throw e;
        }
        insertOperationHistory(ctx, id.value(), event, null, moved.step(), row.getStatus(), toStatus, 1L, detail, actor);
        requireOneRow(ctx.update(OPERATION)
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.UPDATED_AT, now())
                .where(OPERATION.ID.eq(owner.getId())).and(OPERATION.VERSION.eq(owner.getVersion()))
                .execute(), "replaced owner " + owner.getId());
        insertOperationHistory(ctx, owner.getId(), event, step(owner.getStep()), step(owner.getStep()), row.getStatus(), null,
                owner.getVersion() + 1, "replaced by " + id.value(), actor);
        // I5: the one row of the relationship, reset in place, pinned to the owner, status and version read
        requireOneRow(ctx.update(BINDING)
                .set(BINDING.OPERATION_ID, id.value())
                .set(BINDING.STATUS, toStatus)
                .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                .set(BINDING.UPDATED_AT, now())
                .where(BINDING.ID.eq(row.getId()))
                .and(BINDING.OPERATION_ID.eq(owner.getId()))
                .and(BINDING.STATUS.eq(row.getStatus()))
                .and(BINDING.VERSION.eq(row.getVersion()))
                .execute(), "removal of " + row.getSubjectId() + "/" + row.getTargetKey());
        insertBindingHistory(ctx, row.getSubjectId(), row.getTargetKey(), id.value(), event, "REAPPLIED", row.getStatus(),
                toStatus, row.getVersion(), row.getVersion() + 1, detail, actor);
        return OperationReads.opened(ctx, id.value(), Optional.of(toBinding(row)));
    }

    /**
     * The grant whose line a removal takes out: the row's owner, or, when the owner is itself a removal that was not
     * approved (REMOVAL_REJECTED), the grant that one removes (its line is the one in the file).
     */
    private static String removedGrant(OperationRecord owner) {
        return kind(owner.getChangeKind()).removes() && owner.getRemovesOperationId() != null
                ? owner.getRemovesOperationId() : owner.getId();
    }

    /**
     * For a renewal, the grant it replaced, locked: operation rows first (the renewal's, then this one), binding
     * last, as everywhere. Empty for any other operation.
     */
    static Optional<OperationRecord> lockRenewed(DSLContext ctx, OperationRecord op) {
        if (op.getRemovesOperationId() == null || kind(op.getChangeKind()) != ChangeKind.GRANT) {
            return Optional.empty();
        }
        return lockOperation(ctx, op.getRemovesOperationId());
    }

    /**
     * Issue 18: a renewal that ended without effect (REJECTED, CLOSED) hands the row back to the grant it renewed,
     * whose line is still in the file: the row's owner, status and expiry become that grant's again (pinned to the
     * renewal's write just made), the grant moves by RENEWAL_FELL_THROUGH (VALIDATED again, so its own expiry is
     * watched), and the renewal is detached. Nothing happens when the grant is no longer a replaced grant in effect.
     */
    static void renewalFellThrough(DSLContext ctx, TransitionWrites.Locked renewing, OperationRecord grant,
                                   Transition.Moved moved, StepNote note) {
        var renewal = renewing.op();
        var ended = moved.binding().filter(b -> b == BindingStatus.REJECTED || b == BindingStatus.CLOSED);
        if (renewing.binding().isEmpty() || ended.isEmpty() || !moved.bindingChanged()) {
            return;
        }
        var back = Transitions.check(new TransitionWrites.Locked(grant, Optional.empty()).state(),
                WorkflowEvent.RENEWAL_FELL_THROUGH);
        if (!(back instanceof Transition.Moved restored)) {
            return;
        }
        var row = renewing.binding().get();
        var detail = "The renewal " + renewal.getId() + " ended without effect; this grant is in effect again until its expiry.";
        requireOneRow(ctx.update(BINDING)
                .set(BINDING.OPERATION_ID, grant.getId())
                .set(BINDING.STATUS, BindingStatus.VALIDATED.name())
                .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                .set(BINDING.EXPIRES_AT, Sql.utcValue(Sql.instant(grant.getExpiresAt())))
                .set(BINDING.UPDATED_AT, now())
                .where(BINDING.ID.eq(row.getId()))
                .and(BINDING.OPERATION_ID.eq(renewal.getId()))
                .and(BINDING.STATUS.eq(ended.get().name()))
                .and(BINDING.VERSION.eq(row.getVersion() + 1))
                .execute(), "renewal of " + row.getSubjectId() + "/" + row.getTargetKey() + " falling through");
        insertBindingHistory(ctx, row.getSubjectId(), row.getTargetKey(), grant.getId(), WorkflowEvent.RENEWAL_FELL_THROUGH,
                "REAPPLIED", ended.get().name(), BindingStatus.VALIDATED.name(), row.getVersion() + 1, row.getVersion() + 2,
                detail, note.actor());
        requireOneRow(ctx.update(OPERATION)
                .set(OPERATION.STEP, restored.step().code())
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                .set(OPERATION.UPDATED_AT, now())
                .where(OPERATION.ID.eq(grant.getId())).and(OPERATION.VERSION.eq(grant.getVersion()))
                .execute(), "renewed grant " + grant.getId());
        insertOperationHistory(ctx, grant.getId(), WorkflowEvent.RENEWAL_FELL_THROUGH, step(grant.getStep()), restored.step(),
                null, BindingStatus.VALIDATED.name(), grant.getVersion() + 1, detail, note.actor());
        // the renewal loses the row (as a replaced owner does): its version moves too
        requireOneRow(ctx.update(OPERATION)
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.UPDATED_AT, now())
                .where(OPERATION.ID.eq(renewal.getId())).and(OPERATION.VERSION.eq(renewal.getVersion() + 1))
                .execute(), "renewal " + renewal.getId());
        insertOperationHistory(ctx, renewal.getId(), WorkflowEvent.RENEWAL_FELL_THROUGH, moved.step(), moved.step(),
                ended.get().name(), null, renewal.getVersion() + 2, "the grant it renewed owns the row again", note.actor());
    }
}
