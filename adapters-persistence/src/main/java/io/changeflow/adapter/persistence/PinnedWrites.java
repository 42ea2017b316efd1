package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.Sql.requireRows;
import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.jooq.impl.DSL.row;

import io.changeflow.adapter.persistence.jooq.tables.records.BindingRecord;
import io.changeflow.adapter.persistence.jooq.tables.records.OperationRecord;
import io.changeflow.application.port.out.Operations.Pinned;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Row2;
import org.jooq.Row3;

/**
 * {@link JooqOperations#applyAllPinned}: many version-pinned transitions in chunks of {@link Sql#CHUNK}, one
 * transaction and a fixed number of statements per chunk (issue 15); an operation that moved on is skipped, as
 * {@link JooqOperations#apply} would refuse it. The statements: docs/persistence.md, "Many pinned transitions".
 */
final class PinnedWrites {

    /** A transaction picked as a deadlock victim is rolled back whole; the chunk is tried again this often. */
    private static final int DEADLOCK_RETRIES = 2;
    /** Moves to these statuses write more than the two layers (merge order, a renewal falling through). */
    private static final Set<BindingStatus> SIDE_WRITES = EnumSet.of(BindingStatus.MERGED, BindingStatus.REJECTED,
            BindingStatus.CLOSED);

    private PinnedWrites() {
    }

    static List<OperationId> applyAll(DSLContext dsl, List<Pinned> reads, WorkflowEvent event) {
        if (Transitions.leavesBatch(event)) {
            throw new IllegalArgumentException(event + " writes more than the two layers: apply it one by one");
        }
        var byId = new LinkedHashMap<String, Pinned>();
        reads.forEach(p -> byId.putIfAbsent(p.read().id().value(), p));
        var moved = new ArrayList<OperationId>(byId.size());
        for (var chunk : chunks(List.copyOf(byId.values()))) {
            moved.addAll(Sql.retryingDeadlocks(DEADLOCK_RETRIES,
                    () -> GapLockFree.transactionResult(dsl, ctx -> applyChunk(ctx, chunk, event))));
        }
        return moved;
    }

    /** One move to write: the operation and its binding as locked, and where the event takes them. */
    private record Move(Pinned pinned, OperationRecord op, Optional<BindingRecord> binding, Transition.Moved moved) {}

    /** Moves that one pair of guarded updates can write: same step and binding before and after, same note. */
    private record Group(int fromStep, String fromBinding, int toStep, String toBinding, String detail) {}

    private static List<OperationId> applyChunk(DSLContext ctx, List<Pinned> chunk, WorkflowEvent event) {
        var ids = chunk.stream().map(p -> p.read().id().value()).toList();
        var ops = new HashMap<String, OperationRecord>(ids.size() * 2);
        ctx.selectFrom(OPERATION).where(OPERATION.ID.in(ids)).orderBy(OPERATION.ID).forUpdate()
                .forEach(r -> ops.put(r.getId(), r));
        var bindings = new HashMap<String, BindingRecord>(ids.size() * 2);
        ctx.selectFrom(BINDING).where(BINDING.OPERATION_ID.in(ids)).orderBy(BINDING.ID).forUpdate()
                .forEach(r -> bindings.put(r.getOperationId(), r));

        var groups = new LinkedHashMap<Group, List<Move>>();
        for (var pinned : chunk) {
            var op = ops.get(pinned.read().id().value());
            if (op == null || op.getVersion() != pinned.read().version()) {
                continue; // gone, or moved on since it was read
            }
            var binding = Optional.ofNullable(bindings.get(op.getId()));
            if (!(Transitions.check(new TransitionWrites.Locked(op, binding).state(), event) instanceof Transition.Moved moved)) {
                continue; // not allowed where it is now
            }
            if (moved.bindingChanged() && moved.binding().filter(SIDE_WRITES::contains).isPresent()) {
                throw new IllegalArgumentException(event + " leads " + op.getId() + " to " + moved.binding().get()
                        + ", which writes more than the two layers: apply it one by one");
            }
            var group = new Group(op.getStep(), binding.map(BindingRecord::getStatus).orElse(null), moved.step().code(),
                    moved.binding().map(Enum::name).orElse(null), truncate(pinned.note().detail(), Sql.DETAIL_MAX));
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(new Move(pinned, op, binding, moved));
        }
        var written = new ArrayList<Move>();
        groups.forEach((group, moves) -> {
            update(ctx, group, moves);
            written.addAll(moves);
        });
        insertHistory(ctx, written, event);
        return written.stream().map(m -> m.pinned().read().id()).toList();
    }

    private static void update(DSLContext ctx, Group group, List<Move> moves) {
        var ids = moves.stream().map(m -> m.op().getId()).toList();
        var versions = new ArrayList<Row2<String, Long>>(moves.size());
        moves.forEach(m -> versions.add(row(m.op().getId(), m.op().getVersion())));
        requireRows(ctx.update(OPERATION.forceIndex("PRIMARY"))
                .set(OPERATION.STEP, group.toStep())
                .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                .set(OPERATION.DETAIL, group.detail())
                .set(OPERATION.UPDATED_AT, now())
                .where(OPERATION.ID.in(ids))
                .and(OPERATION.STEP.eq(group.fromStep()))
                .and(row(OPERATION.ID, OPERATION.VERSION).in(versions))
                .execute(), ids.size(), "operations (" + moves.getFirst().moved().event() + ")");
        var withBinding = moves.stream().filter(m -> m.binding().isPresent()).toList();
        if (withBinding.isEmpty()) {
            return;
        }
        var bindingIds = withBinding.stream().map(m -> m.op().getId()).toList();
        var bindingVersions = new ArrayList<Row3<String, String, Long>>(withBinding.size());
        withBinding.forEach(m -> bindingVersions.add(row(m.op().getId(), m.binding().get().getStatus(),
                m.binding().get().getVersion())));
        var changed = !java.util.Objects.equals(group.fromBinding(), group.toBinding());
        var update = changed
                ? ctx.update(BINDING.forceIndex("uk_binding_operation"))
                        .set(BINDING.STATUS, group.toBinding())
                        .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                        .set(BINDING.UPDATED_AT, now())
                // the relationship's last write time drives the stuck and reconciliation windows
                : ctx.update(BINDING.forceIndex("uk_binding_operation")).set(BINDING.UPDATED_AT, now());
        requireRows(update.where(BINDING.OPERATION_ID.in(bindingIds))
                .and(row(BINDING.OPERATION_ID, BINDING.STATUS, BINDING.VERSION).in(bindingVersions))
                .execute(), bindingIds.size(), "bindings (" + moves.getFirst().moved().event() + ")");
    }

    private static void insertHistory(DSLContext ctx, List<Move> moves, WorkflowEvent event) {
        if (moves.isEmpty()) {
            return;
        }
        var opHistory = ctx.insertInto(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.EVENT,
                OPERATION_HISTORY.FROM_STEP, OPERATION_HISTORY.TO_STEP, OPERATION_HISTORY.FROM_BINDING,
                OPERATION_HISTORY.TO_BINDING, OPERATION_HISTORY.VERSION, OPERATION_HISTORY.DETAIL, OPERATION_HISTORY.ACTOR);
        for (var m : moves) {
            opHistory = opHistory.values(m.op().getId(), event.name(), m.op().getStep(), m.moved().step().code(),
                    m.binding().map(BindingRecord::getStatus).orElse(null), m.moved().binding().map(Enum::name).orElse(null),
                    m.op().getVersion() + 1, truncate(m.pinned().note().detail(), Sql.DETAIL_MAX),
                    truncate(m.pinned().note().actor(), Sql.ACTOR_MAX));
        }
        opHistory.execute();
        var bindingChanges = moves.stream().filter(m -> m.binding().isPresent() && m.moved().bindingChanged()).toList();
        if (bindingChanges.isEmpty()) {
            return;
        }
        var bindingHistory = ctx.insertInto(BINDING_HISTORY, BINDING_HISTORY.SUBJECT_ID, BINDING_HISTORY.TARGET_KEY,
                BINDING_HISTORY.OPERATION_ID, BINDING_HISTORY.EVENT, BINDING_HISTORY.OUTCOME, BINDING_HISTORY.FROM_STATUS,
                BINDING_HISTORY.TO_STATUS, BINDING_HISTORY.FROM_VERSION, BINDING_HISTORY.TO_VERSION, BINDING_HISTORY.DETAIL,
                BINDING_HISTORY.ACTOR);
        for (var m : bindingChanges) {
            var b = m.binding().get();
            bindingHistory = bindingHistory.values(b.getSubjectId(), b.getTargetKey(), m.op().getId(), event.name(), "CHANGED",
                    b.getStatus(), m.moved().binding().map(Enum::name).orElse(null), b.getVersion(), b.getVersion() + 1,
                    truncate(m.pinned().note().detail(), Sql.DETAIL_MAX), truncate(m.pinned().note().actor(), Sql.ACTOR_MAX));
        }
        bindingHistory.execute();
    }
}
