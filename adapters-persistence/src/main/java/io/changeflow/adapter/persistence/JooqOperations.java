package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireOneRow;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;

import io.changeflow.adapter.persistence.jooq.tables.records.BindingRecord;
import io.changeflow.adapter.persistence.jooq.tables.records.OperationRecord;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SelectOnConditionStep;
import org.jooq.impl.DSL;

/**
 * {@link Operations} on the {@code operation}, {@code binding} and history tables. Every
 * transaction that writes both layers locks the operation row first and the binding row second.
 */
final class JooqOperations implements Operations {

    private static final int DETAIL_MAX = 1000;

    private final DSLContext dsl;

    JooqOperations(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * Design 3.5 with history (and issue 18's renewal: a row in effect is reset like a re-appliable one unless the
     * request asks for the same expiry, which blocks): a plain read of the subject-target row (a locking read of a missing
     * row would take gap locks, and two first applications would deadlock instead of one losing on
     * the unique key); then insert the operation, then insert the row or reset it in place pinning
     * the status and version read. A concurrent first insert surfaces as a duplicate key and is
     * reported as {@link PreemptedException}. Blocked and preempted attempts are appended to the
     * binding history too (the preempted one after the rollback, in its own transaction).
     */
    @Override
    public OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail) {
        if (!Transitions.rule(submitEvent).fromNew() || !Transitions.kindOpenedBy(submitEvent).equals(Optional.of(ChangeKind.GRANT))) {
            throw new IllegalArgumentException(submitEvent + " does not open a request");
        }
        try {
            return dsl.transactionResult(tx -> openInTransaction(tx.dsl(), request, order, submitEvent, detail));
        } catch (PreemptedException e) {
            recordPreemptedAttempt(request, submitEvent, e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            if (!Sql.isDeadlock(e)) {
                throw e;
            }
            recordPreemptedAttempt(request, submitEvent, "lost a deadlock to a concurrent application");
            throw new PreemptedException("a concurrent application of " + request.subject() + "/" + request.target()
                    + " won a deadlock");
        }
    }

    private OpenResult openInTransaction(DSLContext ctx, ChangeRequest request, StepOrder order, WorkflowEvent event,
                                         String detail) {
        var existing = ctx.select(BINDING.fields()).select(OPERATION.STEP, OPERATION.VERSION, OPERATION.CHANGE_KIND)
                .from(BINDING).leftJoin(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                .where(BINDING.SUBJECT_ID.eq(request.subject().value()))
                .and(BINDING.TARGET_KEY.eq(request.target().value()))
                .fetchOptional();
        var row = existing.map(r -> r.into(BINDING));
        var from = existing.map(r -> new WorkflowState(step(r.get(OPERATION.STEP)), Optional.of(status(r.get(BINDING.STATUS))),
                kind(r.get(OPERATION.CHANGE_KIND))));
        var check = Transitions.check(from, event);
        if (check instanceof Transition.Moved && row.isPresent() && toBinding(row.get()).inEffectUntil(request.expiresAt())) {
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
                    .set(OPERATION.STEP_ORDER, order.name())
                    .set(OPERATION.STEP, moved.step().code())
                    .set(OPERATION.VERSION, 1L)
                    .set(OPERATION.DETAIL, truncate(detail, DETAIL_MAX))
                    // a renewal names the grant in effect whose line it rewrites
                    .set(OPERATION.REMOVES_OPERATION_ID, row.filter(r -> BindingStatus.RENEWABLE.contains(status(r.getStatus())))
                            .map(BindingRecord::getOperationId).orElse(null))
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
        return new OpenResult.Opened(findIn(ctx, id).orElseThrow());
    }

    private void recordPreemptedAttempt(ChangeRequest request, WorkflowEvent event, String why) {
        dsl.transaction(tx -> insertBindingHistory(tx.dsl(), request.subject().value(), request.target().value(),
                request.operationId().value(), event, "PREEMPTED", null, null, null, null, why, request.requester()));
    }

    /**
     * Like {@link #open}, for the removal of the grant in effect: the row is read under its lock after the owner's
     * operation row (operation first, binding second, as everywhere), must still be exactly what the caller read
     * (owner, status, version), and is taken over in place by the new removal operation with the same guarded
     * UPDATE; the replaced owner's version is bumped and both histories are appended. A changed row is
     * {@link PreemptedException} and nothing is written.
     */
    @Override
    public OpenResult openRemoval(Binding read, OperationId id, WorkflowEvent event, String actor, String detail) {
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

    /** One range read of {@code idx_binding_status_expires (status, expires_at)}, by the database clock. */
    @Override
    public List<Binding> dueForExpiry(Duration grace, int limit) {
        return dsl.selectFrom(BINDING)
                .where(inEffectForExpiry())
                .and(BINDING.EXPIRES_AT.le(Sql.ahead(grace)))
                .orderBy(BINDING.EXPIRES_AT, BINDING.ID)
                .limit(Math.max(0, limit))
                .fetch(JooqOperations::toBinding);
    }

    @Override
    public ExpiringGrants expiringWithin(Duration within, int limit) {
        // one statement: the window count is computed over every row of the range before the limit applies
        var total = DSL.count().over().as("total");
        var rows = dsl.select(BINDING.asterisk(), total)
                .from(BINDING)
                .where(inEffectForExpiry())
                .and(BINDING.EXPIRES_AT.le(Sql.ahead(within)))
                .orderBy(BINDING.EXPIRES_AT, BINDING.ID)
                .limit(Math.max(1, limit))
                .fetch();
        var count = rows.isEmpty() ? 0L : rows.getFirst().get(total).longValue();
        return new ExpiringGrants(count, rows.map(r -> toBinding(r.into(BINDING))));
    }

    /**
     * The rows whose expiry the expiry job acts on: VALIDATED, and REMOVAL_REJECTED whose removal that was not
     * approved was a revocation (the grant still expires at its until). A rejected expiry is not asked again.
     */
    private static org.jooq.Condition inEffectForExpiry() {
        return BINDING.STATUS.eq(BindingStatus.VALIDATED.name())
                .or(BINDING.STATUS.eq(BindingStatus.REMOVAL_REJECTED.name()).andExists(DSL.selectOne().from(OPERATION)
                        .where(OPERATION.ID.eq(BINDING.OPERATION_ID))
                        .and(OPERATION.CHANGE_KIND.eq(ChangeKind.REVOCATION.name()))));
    }

    @Override
    public Optional<Operation> find(OperationId id) {
        return findIn(dsl, id.value());
    }

    static Optional<Operation> findIn(DSLContext ctx, String id) {
        return selectOperations(ctx).where(OPERATION.ID.eq(id)).fetchOptional().map(JooqOperations::toOperation);
    }

    @Override
    public Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note) {
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
            var binding = lockBinding(ctx, id.value());
            var moved = Transitions.require(stateOf(op, binding), event);
            write(ctx, op, binding, moved, note);
            GrantLifecycleWrites.renewalFellThrough(ctx, op, renewed, binding, moved, note);
            return findIn(ctx, id.value()).orElseThrow();
        });
    }

    /** In chunks of 1000, one transaction and a fixed number of statements each ({@link PinnedWrites}). */
    @Override
    public List<OperationId> applyAllPinned(List<Pinned> reads, WorkflowEvent event) {
        return PinnedWrites.applyAll(dsl, reads, event);
    }

    @Override
    public Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note) {
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            var op = lockOperation(ctx, id.value());
            if (op.isEmpty()) {
                return Optional.<Operation>empty();
            }
            var renewed = GrantLifecycleWrites.lockRenewed(ctx, op.get());
            var binding = lockBinding(ctx, id.value());
            var state = stateOf(op.get(), binding);
            if (!(Transitions.check(state, event) instanceof Transition.Moved moved) || moved.to().equals(state)) {
                return Optional.<Operation>empty();
            }
            write(ctx, op.get(), binding, moved, note);
            GrantLifecycleWrites.renewalFellThrough(ctx, op.get(), renewed, binding, moved, note);
            return findIn(ctx, id.value());
        });
    }

    static Optional<OperationRecord> lockOperation(DSLContext ctx, String id) {
        return ctx.selectFrom(OPERATION).where(OPERATION.ID.eq(id)).forUpdate().fetchOptional();
    }

    static Optional<BindingRecord> lockBinding(DSLContext ctx, String operationId) {
        return ctx.selectFrom(BINDING).where(BINDING.OPERATION_ID.eq(operationId)).forUpdate().fetchOptional();
    }

    static WorkflowState stateOf(OperationRecord op, Optional<BindingRecord> binding) {
        return new WorkflowState(step(op.getStep()), binding.map(b -> status(b.getStatus())), kind(op.getChangeKind()));
    }

    private static void write(DSLContext ctx, OperationRecord op, Optional<BindingRecord> binding, Transition.Moved moved,
                              StepNote note) {
        var id = op.getId();
        var update = ctx.update(OPERATION)
                .set(OPERATION.STEP, moved.step().code())
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.DETAIL, truncate(note.detail(), DETAIL_MAX))
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

    @Override
    public Optional<Binding> binding(SubjectId subject, TargetKey target) {
        return dsl.selectFrom(BINDING)
                .where(BINDING.SUBJECT_ID.eq(subject.value())).and(BINDING.TARGET_KEY.eq(target.value()))
                .fetchOptional().map(JooqOperations::toBinding);
    }

    @Override
    public List<Binding> bindingsOf(SubjectId subject) {
        return dsl.selectFrom(BINDING).where(BINDING.SUBJECT_ID.eq(subject.value())).orderBy(BINDING.TARGET_KEY)
                .fetch(JooqOperations::toBinding);
    }

    @Override
    public List<Operation> requestedBy(String requester, Optional<BindingStatus> status, Optional<TargetKey> target,
            int offset, int limit) {
        return selectOperations(dsl).where(OPERATION.REQUESTER.eq(requester))
                .and(status.map(s -> BINDING.STATUS.eq(s.name())).orElse(DSL.noCondition()))
                .and(target.map(t -> OPERATION.TARGET_KEY.eq(t.value())).orElse(DSL.noCondition()))
                .orderBy(OPERATION.CREATED_AT.desc(), OPERATION.ID.desc())
                .limit(Math.max(0, offset), Math.max(0, limit))
                .fetch(JooqOperations::toOperation);
    }

    @Override
    public List<HistoryEntry> history(OperationId id) {
        return dsl.selectFrom(OPERATION_HISTORY).where(OPERATION_HISTORY.OPERATION_ID.eq(id.value()))
                .orderBy(OPERATION_HISTORY.ID)
                .fetch(JooqOperations::toHistory);
    }

    /**
     * One statement: the operation (with its binding status and batch merge request, as {@link #find}) left-joined to
     * its history rows by {@code idx_operation_history_operation}, oldest first; an operation without history comes
     * back as one row whose history columns are null.
     */
    @Override
    public Optional<WithHistory> findWithHistory(OperationId id) {
        var rows = selectOperations(dsl).getQuery();
        rows.addSelect(OPERATION_HISTORY.fields());
        rows.addJoin(OPERATION_HISTORY, org.jooq.JoinType.LEFT_OUTER_JOIN, OPERATION_HISTORY.OPERATION_ID.eq(OPERATION.ID));
        rows.addConditions(OPERATION.ID.eq(id.value()));
        rows.addOrderBy(OPERATION_HISTORY.ID);
        var found = rows.fetch();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        var history = found.stream().filter(r -> r.get(OPERATION_HISTORY.ID) != null)
                .map(r -> toHistory(r.into(OPERATION_HISTORY))).toList();
        return Optional.of(new WithHistory(toOperation(found.getFirst()), history));
    }

    private static HistoryEntry toHistory(io.changeflow.adapter.persistence.jooq.tables.records.OperationHistoryRecord h) {
        return new HistoryEntry(OperationId.of(h.getOperationId()), WorkflowEvent.valueOf(h.getEvent()),
                Optional.ofNullable(h.getFromStep()).map(JooqOperations::step), step(h.getToStep()),
                Optional.ofNullable(h.getFromBinding()).map(JooqOperations::status),
                Optional.ofNullable(h.getToBinding()).map(JooqOperations::status),
                h.getDetail(), h.getActor(), instant(h.getCreatedAt()));
    }

    @Override
    public List<Operation> stuck(Set<BindingStatus> statuses, Optional<TargetKey> target, Duration stuckFor,
            int limit) {
        var wanted = statuses.isEmpty()
                ? Arrays.stream(BindingStatus.values()).filter(s -> !s.isTerminal()).collect(Collectors.toCollection(
                        () -> EnumSet.noneOf(BindingStatus.class)))
                : EnumSet.copyOf(statuses);
        return selectOperations(dsl)
                .where(BINDING.STATUS.in(wanted.stream().map(Enum::name).toList()))
                .and(target.map(t -> BINDING.TARGET_KEY.eq(t.value())).orElse(DSL.noCondition()))
                .and(BINDING.UPDATED_AT.lt(Sql.ago(stuckFor)))
                .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                .limit(limit)
                .fetch(JooqOperations::toOperation);
    }

    /**
     * One range read of {@code idx_binding_status_updated (status, updated_at)} per status (InnoDB appends the
     * primary key {@code id}, so the keyset {@code (updated_at, id)} is the index order: no sort), the statuses in
     * enum order. The position is {@code status|updated_at|binding id} of the last row of a full page.
     */
    @Override
    public Page scan(Set<BindingStatus> statuses, Duration olderThan, Optional<ScanCursors.Position> after, int limit) {
        if (statuses.isEmpty() || limit < 1) {
            throw new IllegalArgumentException("a scan needs at least one status and a positive limit");
        }
        var ordered = List.copyOf(EnumSet.copyOf(statuses));
        var start = after.flatMap(ScanKey::parse);
        var first = 0;
        if (start.isPresent()) {
            first = ordered.size();
            for (var i = 0; i < ordered.size(); i++) {
                if (ordered.get(i).ordinal() >= start.get().status().ordinal()) {
                    first = i;
                    break;
                }
            }
            if (first == ordered.size()) {
                first = 0;
                start = Optional.empty();
            } else if (ordered.get(first) != start.get().status()) {
                start = Optional.empty();
            }
        }
        var found = new ArrayList<Operation>(Math.min(limit, 1000));
        for (var i = first; i < ordered.size() && found.size() < limit; i++) {
            var status = ordered.get(i);
            var where = BINDING.STATUS.eq(status.name()).and(BINDING.UPDATED_AT.lt(Sql.ago(olderThan)));
            if (i == first && start.isPresent()) {
                var at = Sql.utcValue(start.get().updatedAt());
                where = where.and(BINDING.UPDATED_AT.ge(at))
                        .and(BINDING.UPDATED_AT.gt(at).or(BINDING.ID.gt(start.get().bindingId())));
            }
            var rows = dsl.select(OPERATION.fields())
                    .select(BINDING.STATUS, BINDING.ID, BINDING.UPDATED_AT, MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID,
                            MERGE_BATCH.MR_BRANCH, MERGE_BATCH.MR_WEB_URL)
                    .from(BINDING)
                    .join(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                    .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID))
                    .where(where)
                    .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                    .limit(limit - found.size())
                    .fetch();
            rows.forEach(r -> found.add(toOperation(r)));
            if (found.size() == limit) {
                var last = rows.get(rows.size() - 1);
                return new Page(found, Optional.of(new ScanKey(status, instant(last.get(BINDING.UPDATED_AT)),
                        last.get(BINDING.ID)).position()));
            }
        }
        return new Page(found, Optional.empty());
    }

    /**
     * A keyset range of the status index: {@code status = 'MERGED' AND updated_at < ago(age)}, after the
     * cursor's {@code (updated_at, id)} in the index's own order (InnoDB appends the primary key to a
     * secondary index), so no sort and no offset. One row more than asked tells whether a next page exists.
     */
    @Override
    public MergedPage mergedLongerThan(Duration age, PageCursor after, int limit) {
        var size = Math.max(1, limit);
        var at = Sql.utcValue(after.writtenAt());
        var writtenAt = BINDING.UPDATED_AT.as("binding_written_at");
        var rowKey = BINDING.ID.as("binding_row_key");
        var rows = dsl.select(OPERATION.fields())
                .select(BINDING.STATUS, MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID, MERGE_BATCH.MR_BRANCH,
                        MERGE_BATCH.MR_WEB_URL, writtenAt, rowKey)
                .from(BINDING)
                .join(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID))
                .where(BINDING.STATUS.eq(BindingStatus.MERGED.name()))
                .and(BINDING.UPDATED_AT.lt(Sql.ago(age)))
                .and(BINDING.UPDATED_AT.gt(at).or(BINDING.UPDATED_AT.eq(at).and(BINDING.ID.gt(after.rowKey()))))
                .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                .limit(size + 1)
                .fetch();
        var page = rows.stream().limit(size).toList();
        var next = rows.size() > size
                ? Optional.of(new PageCursor(instant(page.getLast().get(writtenAt)), page.getLast().get(rowKey)))
                : Optional.<PageCursor>empty();
        return new MergedPage(page.stream().map(JooqOperations::toOperation).toList(), next);
    }

    /** The keyset of {@link #scan}'s order, as its position token. */
    private record ScanKey(BindingStatus status, Instant updatedAt, long bindingId) {

        ScanCursors.Position position() {
            return new ScanCursors.Position(status.name() + "|" + updatedAt + "|" + bindingId);
        }

        /** Empty for a token this adapter did not make (the scan then starts from the beginning). */
        static Optional<ScanKey> parse(ScanCursors.Position position) {
            var parts = position.token().split("\\|");
            try {
                return parts.length == 3
                        ? Optional.of(new ScanKey(BindingStatus.valueOf(parts[0]), Instant.parse(parts[1]), Long.parseLong(parts[2])))
                        : Optional.empty();
            } catch (RuntimeException garbled) {
                return Optional.empty();
            }
        }
    }

    /** One read of {@code merge_order} by its unique key per chunk of 1000 merge requests. */
    @Override
    public Map<MergeRequestRef, Long> mergeOrders(Collection<MergeRequestRef> mergeRequests) {
        var wanted = new HashMap<List<Object>, List<MergeRequestRef>>();
        mergeRequests.forEach(mr -> wanted.computeIfAbsent(List.of(mr.project(), mr.iid()), k -> new ArrayList<>()).add(mr));
        var found = new HashMap<MergeRequestRef, Long>();
        for (var chunk : chunks(List.copyOf(wanted.keySet()))) {
            var keys = chunk.stream().map(k -> DSL.row((String) k.get(0), (Long) k.get(1))).toList();
            dsl.select(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID, MERGE_ORDER.SEQ).from(MERGE_ORDER)
                    .where(DSL.row(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID).in(keys))
                    .forEach(r -> wanted.getOrDefault(List.<Object>of(r.value1(), r.value2()), List.of())
                            .forEach(mr -> found.put(mr, r.value3())));
        }
        return found;
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

    @Override
    public List<Operation> idleIn(Set<BindingStatus> statuses, Duration idleFor, IdPage page) {
        if (statuses.isEmpty() || page.limit() < 1) {
            return List.of();
        }
        var condition = BINDING.STATUS.in(statuses.stream().map(Enum::name).toList())
                .and(BINDING.UPDATED_AT.le(Sql.ago(idleFor)));
        if (page.after().isPresent()) {
            condition = condition.and(BINDING.OPERATION_ID.gt(page.after().get().value()));
        }
        return selectOperations(dsl)
                .where(condition)
                .orderBy(BINDING.OPERATION_ID)
                .limit(page.limit())
                .fetch(JooqOperations::toOperation);
    }

    /** One aggregate read of the binding table's status index. */
    @Override
    public Map<BindingStatus, Long> countByStatus() {
        var counts = new EnumMap<BindingStatus, Long>(BindingStatus.class);
        var count = DSL.count();
        dsl.select(BINDING.STATUS, count).from(BINDING).groupBy(BINDING.STATUS)
                .forEach(r -> counts.put(status(r.get(BINDING.STATUS)), r.get(count).longValue()));
        return counts;
    }

    @Override
    public List<Operation> findAll(Collection<OperationId> ids) {
        var distinct = ids.stream().map(OperationId::value).distinct().toList();
        var found = new ArrayList<Operation>(distinct.size());
        for (var chunk : chunks(distinct)) {
            found.addAll(selectOperations(dsl).where(OPERATION.ID.in(chunk)).fetch(JooqOperations::toOperation));
        }
        return found;
    }

    /** Two index reads in one statement: the operation's own merge request, or its batch's. */
    @Override
    public List<Operation> findByMergeRequest(String project, long iid) {
        return selectOperations(dsl)
                .where(OPERATION.MR_PROJECT.eq(project)).and(OPERATION.MR_IID.eq(iid))
                .unionAll(selectOperations(dsl)
                        .where(MERGE_BATCH.MR_PROJECT.eq(project)).and(MERGE_BATCH.MR_IID.eq(iid))
                        .and(OPERATION.MR_IID.isNull()))
                .fetch(JooqOperations::toOperation);
    }

    @Override
    public boolean recordMergeRequest(OperationId id, MergeRequestRef mr) {
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

    @Override
    public void recordApprovalTicket(OperationId id, String ticket) {
        dsl.update(OPERATION).set(OPERATION.APPROVAL_TICKET, ticket).where(OPERATION.ID.eq(id.value())).execute();
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
                Optional.ofNullable(r.get(BINDING.STATUS)).map(JooqOperations::status),
                mr,
                Optional.ofNullable(r.get(OPERATION.APPROVAL_TICKET)),
                Optional.ofNullable(r.get(OPERATION.BATCH_ID)),
                r.get(OPERATION.DETAIL),
                instant(r.get(OPERATION.CREATED_AT)),
                instant(r.get(OPERATION.UPDATED_AT)),
                kind(r.get(OPERATION.CHANGE_KIND)),
                Optional.ofNullable(r.get(OPERATION.REMOVES_OPERATION_ID)).map(OperationId::of));
    }

    /** A stored kind (rows written before issue 18 hold the column's default, GRANT). */
    static ChangeKind kind(String stored) {
        return stored == null ? ChangeKind.GRANT : ChangeKind.valueOf(stored);
    }

    static Binding toBinding(BindingRecord b) {
        return new Binding(SubjectId.of(b.getSubjectId()), TargetKey.of(b.getTargetKey()), OperationId.of(b.getOperationId()),
                status(b.getStatus()), b.getVersion(), Optional.ofNullable(instant(b.getExpiresAt())),
                instant(b.getUpdatedAt()));
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
                .set(OPERATION_HISTORY.DETAIL, truncate(detail, DETAIL_MAX))
                .set(OPERATION_HISTORY.ACTOR, truncate(actor, 128))
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
                .set(BINDING_HISTORY.DETAIL, truncate(detail, DETAIL_MAX))
                .set(BINDING_HISTORY.ACTOR, truncate(actor, 128))
                .execute();
    }
}
