package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.findIn;
import static io.changeflow.adapter.persistence.OperationRows.insertBindingHistory;
import static io.changeflow.adapter.persistence.OperationRows.insertOperationHistory;
import static io.changeflow.adapter.persistence.OperationRows.kind;
import static io.changeflow.adapter.persistence.OperationRows.status;
import static io.changeflow.adapter.persistence.OperationRows.step;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.adapter.persistence.jooq.tables.records.BindingRecord;
import io.changeflow.adapter.persistence.jooq.tables.records.OperationRecord;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The state writes of one operation for {@link JooqOperations}: the row locks (operation first, binding second,
 * as everywhere), the guarded write of both layers with their history and the merge order, and the merge
 * request and approval ticket an operation records.
 */
final class TransitionWrites {

    /** An operation's row and, while it owns one, its binding row, both locked: the state a write pins. */
    record Locked(OperationRecord op, Optional<BindingRecord> binding) {

        WorkflowState state() {
            return new WorkflowState(step(op.getStep()), binding.map(b -> status(b.getStatus())), kind(op.getChangeKind()));
        }
    }

    private TransitionWrites() {
    }

    static Operation apply(DSLContext dsl, OperationId id, long expectedVersion, WorkflowEvent event, StepNote note) {
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            var op = lockOperation(ctx, id.value())
                    .orElseThrow(() -> new IllegalTransitionException(new Transition.Refused(event, Optional.empty(),
                            "no such operation")));
            if (op.getVersion() != expectedVersion) {
                throw new PreemptedException("operation " + id + " is at version " + op.getVersion() + ", not "
                        + expectedVersion);
            }
            var renewed = GrantLifecycleWrites.lockRenewed(ctx, op);
            var locked = new Locked(op, lockBinding(ctx, id.value()));
            var moved = Transitions.require(locked.state(), event);
            write(ctx, locked, moved, note);
            renewed.ifPresent(grant -> GrantLifecycleWrites.renewalFellThrough(ctx, locked, grant, moved, note));
            return findIn(ctx, id.value()).orElseThrow();
        });
    }

    static Optional<Operation> applyIfAllowed(DSLContext dsl, OperationId id, WorkflowEvent event, StepNote note) {
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            var op = lockOperation(ctx, id.value());
            if (op.isEmpty()) {
                return Optional.<Operation>empty();
            }
            var renewed = GrantLifecycleWrites.lockRenewed(ctx, op.get());
            var locked = new Locked(op.get(), lockBinding(ctx, id.value()));
            var state = locked.state();
            if (!(Transitions.check(state, event) instanceof Transition.Moved moved) || moved.to().equals(state)) {
                return Optional.<Operation>empty();
            }
            write(ctx, locked, moved, note);
            renewed.ifPresent(grant -> GrantLifecycleWrites.renewalFellThrough(ctx, locked, grant, moved, note));
            return findIn(ctx, id.value());
        });
    }

    static Optional<OperationRecord> lockOperation(DSLContext ctx, String id) {
        return ctx.selectFrom(OPERATION).where(OPERATION.ID.eq(id)).forUpdate().fetchOptional();
    }

    static Optional<BindingRecord> lockBinding(DSLContext ctx, String operationId) {
        return ctx.selectFrom(BINDING).where(BINDING.OPERATION_ID.eq(operationId)).forUpdate().fetchOptional();
    }

    private static void write(DSLContext ctx, Locked locked, Transition.Moved moved, StepNote note) {
        var op = locked.op();
        var binding = locked.binding();
        var id = op.getId();
        var update = ctx.update(OPERATION)
                .set(OPERATION.STEP, moved.step().code())
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.DETAIL, truncate(note.detail(), Sql.DETAIL_MAX))
                .set(OPERATION.UPDATED_AT, now());
        if (Transitions.leavesBatch(moved.event())) {
            update = update.set(OPERATION.BATCH_ID, (Long) null);
        }
        requireOneRow(update.where(OPERATION.ID.eq(id))
                .and(OPERATION.STEP.eq(op.getStep()))
                .and(OPERATION.VERSION.eq(op.getVersion()))
                .execute(), "operation " + id);
        var fromBinding = binding.map(BindingRecord::getStatus).orElse(null);
        var toBinding = moved.binding().map(Enum::name).orElse(null);
        if (binding.isPresent()) {
            var b = binding.get();
            if (moved.bindingChanged()) {
                requireOneRow(ctx.update(BINDING)
                        .set(BINDING.STATUS, toBinding)
                        .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                        .set(BINDING.UPDATED_AT, now())
                        .where(BINDING.ID.eq(b.getId()))
                        .and(BINDING.OPERATION_ID.eq(id))
                        .and(BINDING.STATUS.eq(b.getStatus()))
                        .and(BINDING.VERSION.eq(b.getVersion()))
                        .execute(), "binding of " + id);
                insertBindingHistory(ctx, b.getSubjectId(), b.getTargetKey(), id, moved.event(), "CHANGED", b.getStatus(),
                        toBinding, b.getVersion(), b.getVersion() + 1, note.detail(), note.actor());
            } else {
                // the relationship's last write time drives the stuck and reconciliation windows
                ctx.update(BINDING).set(BINDING.UPDATED_AT, now()).where(BINDING.ID.eq(b.getId())).execute();
            }
        }
        insertOperationHistory(ctx, id, moved.event(), step(op.getStep()), moved.step(), fromBinding, toBinding,
                op.getVersion() + 1, note.detail(), note.actor());
        if (moved.bindingChanged() && moved.binding().equals(Optional.of(BindingStatus.MERGED))) {
            if (op.getMrIid() != null) {
                recordMergeOrder(ctx, op.getMrProject(), op.getMrIid());
            } else if (op.getBatchId() != null) {
                ctx.select(MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID).from(MERGE_BATCH)
                        .where(MERGE_BATCH.ID.eq(op.getBatchId()))
                        .fetchOptional()
                        .ifPresent(b -> recordMergeOrder(ctx, b.value1(), b.value2()));
            }
        }
    }

    /**
     * Records the merge order of a merge request written MERGED: the first write wins (later members of the
     * same batch, or a repeated write, keep the number it got).
     */
    static void recordMergeOrder(DSLContext ctx, String project, Long iid) {
        if (project == null || iid == null) {
            return;
        }
        ctx.insertInto(MERGE_ORDER).set(MERGE_ORDER.PROJECT, project).set(MERGE_ORDER.MR_IID, iid)
                .onDuplicateKeyIgnore()
                .execute();
    }

    /**
     * Issue 37: the merged commit of a merge request, with its merge order when it has none yet; the first commit stays.
     * At most two statements, each idempotent: an insert that a row of the merge request already there ignores, then
     * (only then) a guarded update that fills a missing commit. No upsert: jOOQ's MySQL form of it ({@code AS excluded})
     * is not MariaDB's.
     */
    static void recordMergedCommit(DSLContext dsl, String project, long iid, String commit) {
        var inserted = dsl.insertInto(MERGE_ORDER).set(MERGE_ORDER.PROJECT, project).set(MERGE_ORDER.MR_IID, iid)
                .set(MERGE_ORDER.MERGE_COMMIT_SHA, commit)
                .onDuplicateKeyIgnore()
                .execute();
        if (inserted == 0) {
            dsl.update(MERGE_ORDER).set(MERGE_ORDER.MERGE_COMMIT_SHA, commit)
                    .where(MERGE_ORDER.PROJECT.eq(project)).and(MERGE_ORDER.MR_IID.eq(iid))
                    .and(MERGE_ORDER.MERGE_COMMIT_SHA.isNull())
                    .execute();
        }
    }

    static boolean recordMergeRequest(DSLContext dsl, OperationId id, MergeRequestRef mr) {
        var rows = dsl.update(OPERATION)
                .set(OPERATION.MR_PROJECT, mr.project())
                .set(OPERATION.MR_IID, mr.iid())
                .set(OPERATION.MR_BRANCH, mr.sourceBranch())
                .set(OPERATION.MR_WEB_URL, mr.webUrl())
                .where(OPERATION.ID.eq(id.value()))
                .and(OPERATION.MR_IID.isNull().or(OPERATION.MR_PROJECT.eq(mr.project()).and(OPERATION.MR_IID.eq(mr.iid()))))
                .execute();
        if (rows > 1) {
            throw new IllegalStateException("operation id " + id + " matched " + rows + " rows");
        }
        return rows == 1;
    }

    /**
     * The end of a request of a duration, fixed once in one transaction: the operation's and its binding row's (while it
     * owns the row), each only while NULL; then the operation's end as stored.
     */
    static Optional<java.time.Instant> fixEnd(DSLContext dsl, OperationId id, java.time.Instant end) {
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            var rows = ctx.update(OPERATION)
                    .set(OPERATION.EXPIRES_AT, Sql.utcValue(end))
                    .where(OPERATION.ID.eq(id.value()))
                    .and(OPERATION.DURATION_SECONDS.isNotNull())
                    .and(OPERATION.EXPIRES_AT.isNull())
                    .execute();
            if (rows > 1) {
                throw new IllegalStateException("operation id " + id + " matched " + rows + " rows");
            }
            var stored = ctx.select(OPERATION.EXPIRES_AT).from(OPERATION)
                    .where(OPERATION.ID.eq(id.value())).and(OPERATION.DURATION_SECONDS.isNotNull())
                    .fetchOptional(OPERATION.EXPIRES_AT);
            if (stored.isEmpty() || stored.get() == null) {
                return Optional.<java.time.Instant>empty();
            }
            // the row's end is its owner's (NULL while a request of a duration waits for its line)
            ctx.update(BINDING)
                    .set(BINDING.EXPIRES_AT, stored.get())
                    .where(BINDING.OPERATION_ID.eq(id.value()))
                    .and(BINDING.EXPIRES_AT.isNull())
                    .execute();
            return Optional.of(Sql.instant(stored.get()));
        });
    }

    static void recordApprovalTicket(DSLContext dsl, OperationId id, String ticket) {
        dsl.update(OPERATION).set(OPERATION.APPROVAL_TICKET, ticket).where(OPERATION.ID.eq(id.value())).execute();
    }

    /** The detail alone, guarded by the version (0 rows: the operation moved on; more is impossible on the key). */
    static boolean recordDetail(DSLContext dsl, OperationId id, long expectedVersion, String detail) {
        return dsl.update(OPERATION).set(OPERATION.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                .where(OPERATION.ID.eq(id.value())).and(OPERATION.VERSION.eq(expectedVersion))
                .execute() == 1;
    }
}
