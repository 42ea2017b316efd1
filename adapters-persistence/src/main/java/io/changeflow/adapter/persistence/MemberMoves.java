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

import io.changeflow.adapter.persistence.jooq.tables.records.OperationRecord;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Row2;
import org.jooq.Row3;
import org.jooq.UpdateSetMoreStep;

/**
 * A batch's members read and moved together through the transition table, both layers, in chunks of
 * {@link Sql#CHUNK}: for the claim, the settlement and the block, inside their transactions.
 */
final class MemberMoves {

    private MemberMoves() {
    }

    /** A member's operation and binding as read (plainly, no lock): what its moves are pinned to. */
    record MemberState(long operationVersion, int step, String bindingStatus, Long bindingVersion, String subject,
                       String target) {
        WorkflowState workflowState() {
            return new WorkflowState(OperationRows.step(step),
                    Optional.ofNullable(bindingStatus).map(OperationRows::status), ChangeKind.GRANT);
        }
    }

    /** The members' operation and binding state, plain reads by primary key and unique key, chunks of 1000. */
    static Map<String, MemberState> readStates(DSLContext ctx, List<String> operationIds) {
        var states = new HashMap<String, MemberState>(operationIds.size() * 2);
        for (var chunk : chunks(operationIds)) {
            ctx.select(OPERATION.ID, OPERATION.VERSION, OPERATION.STEP, BINDING.STATUS, BINDING.VERSION,
                            OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY)
                    .from(OPERATION)
                    .leftJoin(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID))
                    .where(OPERATION.ID.in(chunk))
                    .forEach(r -> states.put(r.get(OPERATION.ID), new MemberState(r.get(OPERATION.VERSION),
                            r.get(OPERATION.STEP), r.get(BINDING.STATUS), r.get(BINDING.VERSION), r.get(OPERATION.SUBJECT_ID),
                            r.get(OPERATION.TARGET_KEY))));
        }
        return states;
    }

    /**
     * Applies {@code event} to every member through the transition table, both layers, each row pinned to
     * the version (and binding status) read: one {@code UPDATE operation} and one {@code UPDATE binding}
     * per chunk of 1000 (operation first, binding second, as everywhere), row counts checked, and one
     * multi-row insert each into the two history tables. BATCH_REQUEUED clears the batch assignment (as a single write
     * of it does), other events keep it.
     */
    static void move(DSLContext ctx, WorkflowEvent event, List<String> ids, Map<String, MemberState> states,
                     StepNote note) {
        move(ctx, event, ids, states, note,
                update -> Transitions.leavesBatch(event) ? update.set(OPERATION.BATCH_ID, (Long) null) : update);
    }

    /** {@link #move} of BATCH_CLAIMED, which assigns the members to the claiming batch {@code batchId}. */
    static void claim(DSLContext ctx, List<String> ids, Map<String, MemberState> states, StepNote note, long batchId) {
        move(ctx, WorkflowEvent.BATCH_CLAIMED, ids, states, note, update -> update.set(OPERATION.BATCH_ID, batchId));
    }

    private static void move(DSLContext ctx, WorkflowEvent event, List<String> ids, Map<String, MemberState> states,
                             StepNote note, UnaryOperator<UpdateSetMoreStep<OperationRecord>> batchAssignment) {
        if (ids.isEmpty()) {
            return;
        }
        Transition.Moved target = null;
        for (var id : ids) {
            var state = states.get(id);
            if (state == null) {
                throw new PreemptedException("member " + id + " of the batch no longer exists");
            }
            var moved = Transitions.require(state.workflowState(), event);
            if (target == null) {
                target = moved;
            } else if (!target.step().equals(moved.step()) || !target.binding().equals(moved.binding())) {
                throw new IllegalStateException(event + " leads the members of one batch to different states");
            }
        }
        var toStep = target.step();
        var toStatus = target.binding().map(Enum::name).orElseThrow();
        var detail = truncate(note.detail(), Sql.DETAIL_MAX);
        for (var chunk : chunks(ids)) {
            var operationVersions = new ArrayList<Row2<String, Long>>(chunk.size());
            var bindingVersions = new ArrayList<Row3<String, String, Long>>(chunk.size());
            var bindingChanges = false;
            for (var id : chunk) {
                var st = states.get(id);
                operationVersions.add(row(id, st.operationVersion()));
                bindingVersions.add(row(id, st.bindingStatus(), st.bindingVersion()));
                bindingChanges |= !toStatus.equals(st.bindingStatus());
            }
            var update = ctx.update(OPERATION.forceIndex("PRIMARY"))
                    .set(OPERATION.STEP, toStep.code())
                    .set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                    .set(OPERATION.DETAIL, detail)
                    .set(OPERATION.UPDATED_AT, now());
            update = batchAssignment.apply(update);
            requireRows(update.where(OPERATION.ID.in(chunk))
                    .and(row(OPERATION.ID, OPERATION.VERSION).in(operationVersions))
                    .execute(), chunk.size(), "operations of the batch (" + event + ")");
            if (bindingChanges) {
                requireRows(ctx.update(BINDING.forceIndex("uk_binding_operation"))
                        .set(BINDING.STATUS, toStatus)
                        .set(BINDING.VERSION, BINDING.VERSION.plus(1))
                        .set(BINDING.UPDATED_AT, now())
                        .where(BINDING.OPERATION_ID.in(chunk))
                        .and(row(BINDING.OPERATION_ID, BINDING.STATUS, BINDING.VERSION).in(bindingVersions))
                        .execute(), chunk.size(), "bindings of the batch (" + event + ")");
            } else {
                // the relationship's last write time drives the stuck and reconciliation windows
                requireRows(ctx.update(BINDING.forceIndex("uk_binding_operation"))
                        .set(BINDING.UPDATED_AT, now())
                        .where(BINDING.OPERATION_ID.in(chunk))
                        .and(row(BINDING.OPERATION_ID, BINDING.STATUS, BINDING.VERSION).in(bindingVersions))
                        .execute(), chunk.size(), "bindings of the batch (" + event + ")");
            }

            var opHistory = ctx.insertInto(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.EVENT,
                    OPERATION_HISTORY.FROM_STEP, OPERATION_HISTORY.TO_STEP, OPERATION_HISTORY.FROM_BINDING,
                    OPERATION_HISTORY.TO_BINDING, OPERATION_HISTORY.VERSION, OPERATION_HISTORY.DETAIL,
                    OPERATION_HISTORY.ACTOR);
            for (var id : chunk) {
                var st = states.get(id);
                opHistory = opHistory.values(id, event.name(), st.step(), toStep.code(), st.bindingStatus(), toStatus,
                        st.operationVersion() + 1, detail, note.actor());
            }
            opHistory.execute();

            if (bindingChanges) {
                var bindingHistory = ctx.insertInto(BINDING_HISTORY, BINDING_HISTORY.SUBJECT_ID, BINDING_HISTORY.TARGET_KEY,
                        BINDING_HISTORY.OPERATION_ID, BINDING_HISTORY.EVENT, BINDING_HISTORY.OUTCOME,
                        BINDING_HISTORY.FROM_STATUS, BINDING_HISTORY.TO_STATUS, BINDING_HISTORY.FROM_VERSION,
                        BINDING_HISTORY.TO_VERSION, BINDING_HISTORY.DETAIL, BINDING_HISTORY.ACTOR);
                for (var id : chunk) {
                    var st = states.get(id);
                    bindingHistory = bindingHistory.values(st.subject(), st.target(), id, event.name(), "CHANGED",
                            st.bindingStatus(), toStatus, st.bindingVersion(), st.bindingVersion() + 1, detail, note.actor());
                }
                bindingHistory.execute();
            }
        }
    }
}
