package io.changeflow.benchmarks.db;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Rows in a given state, written in bulk (multi-row inserts of 1000, outside any measurement), on the
 * adapter's generated jOOQ tables. States come from the domain's transition table, never typed in.
 */
public final class BulkRows {

    static final int CHUNK = 1000;

    private BulkRows() {
    }

    /** The state after {@code events} from a new request, by the transition table. */
    static WorkflowState walk(WorkflowEvent... events) {
        var state = Transitions.require(events[0]).to();
        for (var event : List.of(events).subList(1, events.length)) {
            state = Transitions.require(state, event).to();
        }
        return state;
    }

    /** Approved requests waiting in {@code partition}: operation and binding BATCH_WAITING, admitted a second ago. */
    public static List<String> waiting(DSLContext dsl, String partition, int count) {
        var state = walk(WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_BATCH);
        if (state.step() != StepStatus.BATCH_WAITING || state.binding().orElseThrow() != BindingStatus.BATCH_WAITING) {
            throw new IllegalStateException("the transition table no longer leads to BATCH_WAITING: " + state);
        }
        var ids = new ArrayList<String>(count);
        for (var from = 0; from < count; from += CHUNK) {
            var n = Math.min(CHUNK, count - from);
            var ops = dsl.insertInto(OPERATION, OPERATION.ID, OPERATION.REQUESTER, OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY,
                    OPERATION.REASON, OPERATION.STEP_ORDER, OPERATION.STEP, OPERATION.VERSION);
            var bindings = dsl.insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID,
                    BINDING.STATUS, BINDING.VERSION);
            var requests = dsl.insertInto(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.OPERATION_ID,
                    MERGE_BATCH_REQUEST.PARTITION_KEY, MERGE_BATCH_REQUEST.CREATED_AT);
            for (var i = 0; i < n; i++) {
                var id = UUID.randomUUID().toString();
                ids.add(id);
                var subject = "w" + id.replace("-", "").substring(0, 20);
                var target = "bulk-" + partition;
                ops = ops.values(id, "bulk", subject, target, "bulk", StepOrder.APPROVE_FIRST.name(), state.step().code(), 3L);
                bindings = bindings.values(subject, target, id, state.binding().orElseThrow().name(), 3L);
                requests = requests.values(DSL.val(id), DSL.val(partition), ago("1 SECOND"));
            }
            ops.execute();
            bindings.execute();
            requests.execute();
        }
        return ids;
    }

    /**
     * Merged requests, each with its own merge request ({@code projects} projects, numbered 1.. per
     * project), last written {@code minutesAgo} minutes ago (inside the reconciliation window), whose
     * deploy report was lost: operation step and binding status as after MERGED.
     */
    public static void merged(DSLContext dsl, int count, int projects, int minutesAgo) {
        var state = walk(WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED);
        if (state.binding().orElseThrow() != BindingStatus.MERGED) {
            throw new IllegalStateException("the transition table no longer leads to MERGED: " + state);
        }
        var written = ago(minutesAgo + " MINUTE");
        for (var from = 0; from < count; from += CHUNK) {
            var n = Math.min(CHUNK, count - from);
            var ops = dsl.insertInto(OPERATION, OPERATION.ID, OPERATION.REQUESTER, OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY,
                    OPERATION.REASON, OPERATION.STEP_ORDER, OPERATION.STEP, OPERATION.VERSION, OPERATION.MR_PROJECT,
                    OPERATION.MR_IID, OPERATION.MR_BRANCH, OPERATION.MR_WEB_URL, OPERATION.UPDATED_AT);
            var bindings = dsl.insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID,
                    BINDING.STATUS, BINDING.VERSION, BINDING.UPDATED_AT);
            for (var i = 0; i < n; i++) {
                var seq = from + i;
                var id = UUID.randomUUID().toString();
                var subject = "m" + seq;
                var project = project(seq % projects);
                long iid = seq / projects + 1;
                ops = ops.values(DSL.val(id), DSL.val("bulk"), DSL.val(subject), DSL.val("bulk-merged"), DSL.val("bulk"),
                        DSL.val(StepOrder.APPROVE_FIRST.name()), DSL.val(state.step().code()), DSL.val(5L), DSL.val(project),
                        DSL.val(iid), DSL.val("changeflow/" + id), DSL.val("http://gitlab.example/" + project + "/-/merge_requests/" + iid),
                        written);
                bindings = bindings.values(DSL.val(subject), DSL.val("bulk-merged"), DSL.val(id),
                        DSL.val(state.binding().orElseThrow().name()), DSL.val(4L), written);
            }
            ops.execute();
            bindings.execute();
            // their merge order, in the order they were written
            var orders = dsl.insertInto(MERGE_ORDER, MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID);
            for (var i = 0; i < n; i++) {
                var seq = from + i;
                orders = orders.values(project(seq % projects), (long) (seq / projects + 1));
            }
            orders.execute();
        }
    }

    /** One "in effect" deploy report per project naming its largest merge request: every merged row is at or below the watermark. */
    public static void watermarks(DSLContext dsl, int count, int projects) {
        for (var p = 0; p < projects; p++) {
            long largest = (count - 1 - p) / projects + 1;
            dsl.insertInto(DEPLOY_CALLBACK, DEPLOY_CALLBACK.DELIVERY_ID, DEPLOY_CALLBACK.PROJECT, DEPLOY_CALLBACK.MR_IID,
                    DEPLOY_CALLBACK.STATUS).values("bench-" + UUID.randomUUID(), project(p), largest, "success").execute();
        }
    }

    static String project(int p) {
        return "platform/bench-" + p;
    }

    private static Field<LocalDateTime> ago(String interval) {
        return DSL.field("(CURRENT_TIMESTAMP(3) - INTERVAL " + interval + ")", SQLDataType.LOCALDATETIME(3));
    }
}
