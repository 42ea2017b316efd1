package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.insertBindingHistory;
import static io.changeflow.adapter.persistence.OperationRows.insertOperationHistory;
import static io.changeflow.adapter.persistence.OperationRows.kind;
import static io.changeflow.adapter.persistence.OperationRows.status;
import static io.changeflow.adapter.persistence.OperationRows.step;
import static io.changeflow.adapter.persistence.OperationRows.toBinding;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.adapter.persistence.jooq.tables.records.BindingRecord;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The transactions that open an operation for {@link JooqOperations}: a request's first application or
 * re-application (design 3.5, I5) and, through {@link GrantLifecycleWrites}, the removal of a grant in effect.
 * Every attempt, blocked or preempted too, is appended to the binding history.
 */
final class OpeningWrites {

    private OpeningWrites() {
    }

    /**
     * A plain read of the subject-target row (a locking read of a missing row would take gap locks, and two first
     * applications would deadlock instead of one losing on the unique key); then the operation inserted, then the
     * row inserted or reset in place pinning the status and version read. A renewal (issue 18) is reset like a
     * re-appliable row unless it asks for the same expiry, which blocks. A concurrent first insert is
     * {@link PreemptedException}, recorded after the rollback in its own transaction. When the request is opened, the
     * idempotency {@code outcome} (if given) is stored by the same transaction, after the row's writes (issue 33).
     */
    static OpenResult open(DSLContext dsl, ChangeRequest request, StepOrder order, WorkflowEvent submitEvent,
                           String detail, Optional<IdempotencyRecords.Outcome> outcome) {
        if (!Transitions.rule(submitEvent).fromNew() || !Transitions.kindOpenedBy(submitEvent).equals(Optional.of(ChangeKind.GRANT))) {
            throw new IllegalArgumentException(submitEvent + " does not open a request");
        }
        return opened(dsl, request, order, submitEvent, detail, Optional.empty(), outcome);
    }

    /**
     * Issue 36: the removal of a line drift detection found, opened like a first application or re-application (a
     * missing or re-appliable row), as a REVOCATION that removes {@code lineOperation}'s line.
     */
    static OpenResult openDriftRemoval(DSLContext dsl, ChangeRequest removal, OperationId lineOperation, String detail) {
        return opened(dsl, removal, StepOrder.APPROVE_FIRST, WorkflowEvent.DRIFT_REMOVAL, detail, Optional.of(lineOperation),
                Optional.empty());
    }

    private static OpenResult opened(DSLContext dsl, ChangeRequest request, StepOrder order, WorkflowEvent submitEvent,
                                     String detail, Optional<OperationId> removedLine,
                                     Optional<IdempotencyRecords.Outcome> outcome) {
        try {
            return dsl.transactionResult(tx -> openInTransaction(tx.dsl(), request, order, submitEvent, detail, removedLine,
                    outcome));
        } catch (PreemptedException e) {
            recordPreemptedAttempt(dsl, request, submitEvent, e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            if (!Sql.isDeadlock(e)) {
                throw e;
            }
            recordPreemptedAttempt(dsl, request, submitEvent, "lost a deadlock to a concurrent application");
            throw new PreemptedException("a concurrent application of " + request.subject() + "/" + request.target()
                    + " won a deadlock");
        }
    }

    private static OpenResult openInTransaction(DSLContext ctx, ChangeRequest request, StepOrder order,
                                                WorkflowEvent event, String detail, Optional<OperationId> removedLine,
                                                Optional<IdempotencyRecords.Outcome> outcome) {
        var existing = ctx.select(BINDING.fields()).select(OPERATION.STEP, OPERATION.VERSION, OPERATION.CHANGE_KIND)
                .from(BINDING).leftJoin(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                .where(BINDING.SUBJECT_ID.eq(request.subject().value()))
                .and(BINDING.TARGET_KEY.eq(request.target().value()))
                .fetchOptional();
        var row = existing.map(r -> r.into(BINDING));
        var from = existing.map(r -> new WorkflowState(step(r.get(OPERATION.STEP)), Optional.of(status(r.get(BINDING.STATUS))),
                kind(r.get(OPERATION.CHANGE_KIND))));
        var check = from.map(state -> Transitions.check(state, event)).orElseGet(() -> Transitions.check(event));
        if (check instanceof Transition.Moved && row.isPresent() && toBinding(row.get()).alreadyInEffectFor(request)) {
            // the same grant again is no change (ALREADY_IN_EFFECT); another expiry is a renewal (issue 18)
            check = new Transition.Refused(event, from, "already in effect until the same expiry");
        }
        var moved = switch (check) {
            case Transition.Moved m -> m;
            case Transition.Refused refused -> {
                var blocking = row.orElseThrow(() -> new IllegalTransitionException(refused));
                insertBindingHistory(ctx, request.subject().value(), request.target().value(), request.operationId().value(),
                        event, "BLOCKED", blocking.getStatus(), blocking.getStatus(), blocking.getVersion(),
                        blocking.getVersion(), refused.reason(), request.requester());
                yield null;
            }
        };
        if (moved == null) {
            return new OpenResult.Blocked(toBinding(row.get()));
        }
        var id = request.operationId().value();
        var toStatus = moved.binding().orElseThrow().name();
        try {
            ctx.insertInto(OPERATION)
                    .set(OPERATION.ID, id)
                    .set(OPERATION.REQUESTER, request.requester())
                    .set(OPERATION.SUBJECT_ID, request.subject().value())
                    .set(OPERATION.TARGET_KEY, request.target().value())
                    .set(OPERATION.REASON, request.reason())
                    .set(OPERATION.EXPIRES_AT, Sql.utcValue(request.expiresAt().orElse(null)))
                    .set(OPERATION.DURATION_SECONDS, request.duration().map(java.time.Duration::toSeconds).orElse(null))
                    .set(OPERATION.STEP_ORDER, order.name())
                    .set(OPERATION.STEP, moved.step().code())
                    .set(OPERATION.VERSION, 1L)
                    .set(OPERATION.DETAIL, truncate(detail, Sql.DETAIL_MAX))
                    .set(OPERATION.CHANGE_KIND, moved.to().kind().name())
                    // a renewal names the grant in effect whose line it rewrites; a drift removal the line's operation
                    .set(OPERATION.REMOVES_OPERATION_ID, removedLine.map(OperationId::value).orElseGet(() -> row
                            .filter(r -> BindingStatus.RENEWABLE.contains(status(r.getStatus())))
                            .map(BindingRecord::getOperationId).orElse(null)))
                    .execute();
        } catch (RuntimeException e) {
            if (Sql.isDuplicateKey(e)) {
                throw new PreemptedException("operation " + id + " already exists");
            }
            throw e;
        }
        insertOperationHistory(ctx, id, event, null, moved.step(), null, toStatus, 1L, detail, request.requester());
        if (row.isEmpty()) {
            try {
                ctx.insertInto(BINDING)
                        .set(BINDING.SUBJECT_ID, request.subject().value())
                        .set(BINDING.TARGET_KEY, request.target().value())
                        .set(BINDING.OPERATION_ID, id)
                        .set(BINDING.STATUS, toStatus)
                        .set(BINDING.VERSION, 1L)
                        .set(BINDING.EXPIRES_AT, Sql.utcValue(request.expiresAt().orElse(null)))
                        .execute();
            } catch (RuntimeException e) {
                if (Sql.isDuplicateKey(e)) {
                    throw new PreemptedException("a concurrent application created " + request.subject() + "/"
                            + request.target() + " first");
                }
                throw e;
            }
            insertBindingHistory(ctx, request.subject().value(), request.target().value(), id, event, "APPLIED", null,
                    toStatus, null, 1L, detail, request.requester());
        } else {
            var old = row.get();
            var previousOwner = old.getOperationId();
            var previousOwnerVersion = existing.get().get(OPERATION.VERSION);
            if (previousOwnerVersion != null) {
                // the replaced owner's state changes too (it loses its binding): bump its version, guarded
                requireOneRow(ctx.update(OPERATION)
                        .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                        .set(OPERATION.UPDATED_AT, now())
                        .where(OPERATION.ID.eq(previousOwner)).and(OPERATION.VERSION.eq(previousOwnerVersion))
                        .execute(), "replaced owner " + previousOwner);
                var oldStep = from.get().step();
                insertOperationHistory(ctx, previousOwner, event, oldStep, oldStep, old.getStatus(), null,
                        previousOwnerVersion + 1, "replaced by " + id, request.requester());
            }
            requireOneRow(ctx.update(BINDING)
                    .set(BINDING.OPERATION_ID, id)
                    .set(BINDING.STATUS, toStatus)
                    .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                    .set(BINDING.EXPIRES_AT, Sql.utcValue(request.expiresAt().orElse(null)))
                    .set(BINDING.UPDATED_AT, now())
                    .where(BINDING.ID.eq(old.getId()))
                    .and(BINDING.STATUS.eq(old.getStatus()))
                    .and(BINDING.VERSION.eq(old.getVersion()))
                    .execute(), "re-application of " + request.subject() + "/" + request.target());
            insertBindingHistory(ctx, request.subject().value(), request.target().value(), id, event, "REAPPLIED",
                    old.getStatus(), toStatus, old.getVersion(), old.getVersion() + 1, detail, request.requester());
        }
        // the key's outcome commits with the request or not at all: a retry never finds an answer nothing was written for
        outcome.ifPresent(answer -> JooqIdempotencyRecords.complete(ctx, answer.key(), answer.outcome()));
        return OperationReads.opened(ctx, id, row.map(OperationRows::toBinding));
    }

    private static void recordPreemptedAttempt(DSLContext dsl, ChangeRequest request, WorkflowEvent event, String why) {
        dsl.transaction(tx -> insertBindingHistory(tx.dsl(), request.subject().value(), request.target().value(),
                request.operationId().value(), event, "PREEMPTED", null, null, null, null, why, request.requester()));
    }

    /**
     * The removal of the grant in effect, in one transaction ({@link GrantLifecycleWrites#openRemoval}): the row,
     * locked after its owner's operation row, must still be exactly what the caller read, and is taken over in
     * place. A changed row, or a lost deadlock, is {@link PreemptedException} and nothing is written.
     */
    static OpenResult openRemoval(DSLContext dsl, Binding read, OperationId id, WorkflowEvent event, String actor,
                                  String detail) {
        if (Transitions.kindOpenedBy(event).filter(ChangeKind::removes).isEmpty()) {
            throw new IllegalArgumentException(event + " does not open a removal");
        }
        try {
            return dsl.transactionResult(tx -> GrantLifecycleWrites.openRemoval(tx.dsl(), read, id, event, actor, detail));
        } catch (RuntimeException e) {
            if (Sql.isDeadlock(e)) {
                throw new PreemptedException("a concurrent change of " + read.subject() + "/" + read.target() + " won a deadlock");
            }
            throw e;
        }
    }
}
