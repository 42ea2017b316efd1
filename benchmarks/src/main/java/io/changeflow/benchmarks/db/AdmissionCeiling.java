package io.changeflow.benchmarks.db;

import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The database's own ceiling for what one admission (POST /api/requests, approve-first target)
 * writes, as plain JDBC on the same driver and URL parameters as the app, so the driver's own extra
 * round trips (mysql-connector-j asks {@code SELECT @@session.transaction_read_only} before every
 * write) are the same. Two shapes:
 * <ul>
 *   <li>{@link #rows}: the same rows in ONE transaction: idempotency record, operation, operation
 *       history, binding, binding history and the durable step (scheduled_tasks), nothing read;</li>
 *   <li>{@link #mirror}: the app's statement sequence and transaction boundaries, read off the
 *       server's general log of one admission (JooqIdempotencyRecords.checkOrInsert, Operations.find,
 *       JooqOperations.open's transaction, db-scheduler's schedule, the answer's find and history,
 *       JooqIdempotencyRecords.complete): 3 autocommit statements, 1 read, a 6-statement transaction,
 *       4 scheduler statements, 2 reads, 1 update. Each autocommit statement borrows a pooled
 *       connection, as jOOQ on Spring's DataSource does outside a transaction.</li>
 * </ul>
 * Durable steps are written under the task name {@code ceiling-step}, so the scheduler's backlog
 * count over {@code workflow-step} sees an empty range, as the app's does once its steps ran.
 */
public final class AdmissionCeiling {

    static final String OPERATION_COLUMNS = "`operation`.`id`, `operation`.`requester`, `operation`.`subject_id`, "
            + "`operation`.`target_key`, `operation`.`reason`, `operation`.`expires_at`, `operation`.`step_order`, "
            + "`operation`.`step`, `operation`.`version`, `operation`.`mr_project`, `operation`.`mr_iid`, `operation`.`mr_branch`, "
            + "`operation`.`mr_web_url`, `operation`.`approval_ticket`, `operation`.`batch_id`, `operation`.`detail`, "
            + "`operation`.`created_at`, `operation`.`updated_at`, `binding`.`status`, `merge_batch`.`mr_project`, "
            + "`merge_batch`.`mr_iid`, `merge_batch`.`mr_branch`, `merge_batch`.`mr_web_url`";
    static final String FIND_OPERATION = "select " + OPERATION_COLUMNS + " from `operation` left outer join `binding` on "
            + "`binding`.`operation_id` = `operation`.`id` left outer join `merge_batch` on `merge_batch`.`id` = "
            + "`operation`.`batch_id` where `operation`.`id` = ?";
    static final String IDEMPOTENCY_LIVE = "select `idempotency_record`.`fingerprint`, `idempotency_record`.`outcome` from "
            + "`idempotency_record` where (`idempotency_record`.`idem_key` = ? and `idempotency_record`.`expires_at` > CURRENT_TIMESTAMP(3))";
    static final String IDEMPOTENCY_PURGE = "delete from `idempotency_record` where (`idempotency_record`.`idem_key` = ? and "
            + "`idempotency_record`.`expires_at` <= CURRENT_TIMESTAMP(3))";
    static final String IDEMPOTENCY_INSERT = "insert into `idempotency_record` (`idem_key`, `fingerprint`, `expires_at`) values "
            + "(?, ?, (CURRENT_TIMESTAMP(3) + INTERVAL 604800000000 MICROSECOND))";
    static final String IDEMPOTENCY_COMPLETE = "update `idempotency_record` set `idempotency_record`.`outcome` = ? where "
            + "`idempotency_record`.`idem_key` = ?";
    static final String BINDING_READ = "select `binding`.`id`, `binding`.`subject_id`, `binding`.`target_key`, "
            + "`binding`.`operation_id`, `binding`.`status`, `binding`.`version`, `binding`.`expires_at`, `binding`.`created_at`, "
            + "`binding`.`updated_at`, `operation`.`step`, `operation`.`version` from `binding` left outer join `operation` on "
            + "`operation`.`id` = `binding`.`operation_id` where (`binding`.`subject_id` = ? and `binding`.`target_key` = ?)";
    static final String OPERATION_INSERT = "insert into `operation` (`id`, `requester`, `subject_id`, `target_key`, `reason`, "
            + "`expires_at`, `step_order`, `step`, `version`, `detail`) values (?, ?, ?, ?, ?, null, ?, ?, 1, ?)";
    static final String OPERATION_HISTORY_INSERT = "insert into `operation_history` (`operation_id`, `event`, `from_step`, "
            + "`to_step`, `from_binding`, `to_binding`, `version`, `detail`, `actor`) values (?, ?, null, ?, null, ?, 1, ?, ?)";
    static final String BINDING_INSERT = "insert into `binding` (`subject_id`, `target_key`, `operation_id`, `status`, "
            + "`version`, `expires_at`) values (?, ?, ?, ?, 1, null)";
    static final String BINDING_HISTORY_INSERT = "insert into `binding_history` (`subject_id`, `target_key`, `operation_id`, "
            + "`event`, `outcome`, `from_status`, `to_status`, `from_version`, `to_version`, `detail`, `actor`) values "
            + "(?, ?, ?, ?, 'APPLIED', null, ?, null, 1, ?, ?)";
    static final String TASK_READ = "select * from scheduled_tasks where task_name = ? and task_instance = ?";
    static final String TASK_BACKLOG = "select count(*) from scheduled_tasks where task_name = 'workflow-step' and picked = 0";
    static final String TASK_INSERT = "insert into scheduled_tasks(task_name, task_instance, task_data, execution_time, picked, "
            + "version) values(?, ?, ?, ?, 0, 1 )";
    static final String HISTORY_READ = "select `operation_history`.`id`, `operation_history`.`operation_id`, "
            + "`operation_history`.`event`, `operation_history`.`from_step`, `operation_history`.`to_step`, "
            + "`operation_history`.`from_binding`, `operation_history`.`to_binding`, `operation_history`.`version`, "
            + "`operation_history`.`detail`, `operation_history`.`actor`, `operation_history`.`created_at` from "
            + "`operation_history` where `operation_history`.`operation_id` = ? order by `operation_history`.`id`";

    static final String FIND_WITH_HISTORY = "select " + OPERATION_COLUMNS + ", `operation_history`.`id`, "
            + "`operation_history`.`event`, `operation_history`.`from_step`, `operation_history`.`to_step`, "
            + "`operation_history`.`from_binding`, `operation_history`.`to_binding`, `operation_history`.`version`, "
            + "`operation_history`.`detail`, `operation_history`.`actor`, `operation_history`.`created_at` from `operation` "
            + "left outer join `binding` on `binding`.`operation_id` = `operation`.`id` left outer join `merge_batch` on "
            + "`merge_batch`.`id` = `operation`.`batch_id` left outer join `operation_history` on "
            + "`operation_history`.`operation_id` = `operation`.`id` where `operation`.`id` = ? order by `operation_history`.`id`";
    static final String IDEMPOTENCY_CLAIM = "insert into `idempotency_record` (`idem_key`, `fingerprint`, `expires_at`) "
            + "values (?, ?, (CURRENT_TIMESTAMP(3) + INTERVAL 604800000000 MICROSECOND))";
    static final String TRACE_KEEP = "insert ignore into step_trace (ref, fields, created_at) values (?, ?, ?)";

    static final String TASK_NAME = "ceiling-step";
    private static final WorkflowEvent EVENT = WorkflowEvent.SUBMITTED_APPROVE_FIRST;

    private final DataSource dataSource;
    private final int step;
    private final String bindingStatus;
    private final byte[] taskData;

    public AdmissionCeiling(DataSource dataSource) {
        this.dataSource = dataSource;
        var moved = (Transition.Moved) Transitions.check(EVENT);
        this.step = moved.step().code();
        this.bindingStatus = moved.binding().orElseThrow().name();
        this.taskData = serializedStepData();
    }

    /** One admission's rows in one transaction. */
    public void rows(String subject, String target) throws SQLException {
        var id = UUID.randomUUID().toString();
        inTransaction(c -> {
            idempotencyInsert(c, id);
            operationInsert(c, id, subject, target);
            operationHistoryInsert(c, id);
            bindingInsert(c, id, subject, target);
            bindingHistoryInsert(c, id, subject, target);
            taskInsert(c, id);
        });
    }

    /** One admission's statements and transactions as the app issues them. */
    public void mirror(String subject, String target) throws SQLException {
        var id = UUID.randomUUID().toString();
        // JooqIdempotencyRecords.checkOrInsert: three autocommit statements
        onOwnConnection(c -> query(c, IDEMPOTENCY_LIVE, id));
        onOwnConnection(c -> update(c, IDEMPOTENCY_PURGE, id));
        onOwnConnection(c -> idempotencyInsert(c, id));
        // SubmitChangeRequest.decide: Operations.find
        onOwnConnection(c -> query(c, FIND_OPERATION, id));
        // JooqOperations.open: one transaction
        inTransaction(c -> {
            query(c, BINDING_READ, subject, target);
            operationInsert(c, id, subject, target);
            operationHistoryInsert(c, id);
            bindingInsert(c, id, subject, target);
            bindingHistoryInsert(c, id, subject, target);
            query(c, FIND_OPERATION, id);
        });
        // StepLauncher.launch -> db-scheduler schedule: exists?, backlog bound, exists?, insert
        var instance = "SUBMIT_APPROVAL:" + id;
        onOwnConnection(c -> query(c, TASK_READ, TASK_NAME, instance));
        onOwnConnection(c -> query(c, TASK_BACKLOG));
        onOwnConnection(c -> {
            query(c, TASK_READ, TASK_NAME, instance);
            taskInsert(c, id);
        });
        // the 202 answer: the request view (find, history), then the idempotency outcome
        onOwnConnection(c -> query(c, FIND_OPERATION, id));
        onOwnConnection(c -> query(c, HISTORY_READ, id));
        onOwnConnection(c -> update(c, IDEMPOTENCY_COMPLETE, "ACCEPTED", id));
    }

    /**
     * One admission's statements and transactions as the app issues them since issue 33 item 2 (read off the
     * statement counts of AdmissionCostTest and FirstStepCostTest): the idempotency claim (one insert), the look for
     * an operation of an expired key, the opening transaction (its last read returns the history too), the request's
     * trace kept (tracing on, as by default), the step's one insert: 11 statements on 5 pooled connections. The stored
     * outcome is the opening transaction's last write (issue 33 next step 4; it was an autocommit statement of its own,
     * on a sixth connection, after the step's insert).
     */
    public void mirrorLean(String subject, String target) throws SQLException {
        var id = UUID.randomUUID().toString();
        onOwnConnection(c -> update(c, IDEMPOTENCY_CLAIM, id, "f".repeat(64)));
        onOwnConnection(c -> query(c, FIND_OPERATION, id));
        inTransaction(c -> {
            query(c, BINDING_READ, subject, target);
            operationInsert(c, id, subject, target);
            operationHistoryInsert(c, id);
            bindingInsert(c, id, subject, target);
            bindingHistoryInsert(c, id, subject, target);
            update(c, IDEMPOTENCY_COMPLETE, "ACCEPTED", id);
            query(c, FIND_WITH_HISTORY, id);
        });
        onOwnConnection(c -> update(c, TRACE_KEEP, id, "traceparent=00-" + id.replace("-", "") + "-0000000000000001-01\n",
                Timestamp.from(Instant.now())));
        onOwnConnection(c -> taskInsert(c, id));
    }

    private static void query(Connection c, String sql, String... values) throws SQLException {
        try (var s = c.prepareStatement(sql)) {
            for (var i = 0; i < values.length; i++) {
                s.setString(i + 1, values[i]);
            }
            try (var r = s.executeQuery()) {
                while (r.next()) {
                    r.getObject(1);
                }
            }
        }
    }

    /** Autocommit statements on a pooled connection of their own, as each call outside a transaction gets one. */
    private void onOwnConnection(Work work) throws SQLException {
        try (var c = dataSource.getConnection()) {
            work.on(c);
        }
    }

    /** One transaction on one pooled connection: committed when {@code work} returns, rolled back when it throws. */
    private void inTransaction(Work work) throws SQLException {
        try (var c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                work.on(c);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    @FunctionalInterface
    private interface Work {
        void on(Connection c) throws SQLException;
    }

    /** Runs the write {@code sql} with {@code values} as its parameters, in order. */
    private static void update(Connection c, String sql, Object... values) throws SQLException {
        try (var s = c.prepareStatement(sql)) {
            for (var i = 0; i < values.length; i++) {
                s.setObject(i + 1, values[i]);
            }
            s.executeUpdate();
        }
    }

    private static void idempotencyInsert(Connection c, String id) throws SQLException {
        update(c, IDEMPOTENCY_INSERT, id, "f".repeat(64));
    }

    private void operationInsert(Connection c, String id, String subject, String target) throws SQLException {
        update(c, OPERATION_INSERT, id, "alice", subject, target, "benchmark admission", "APPROVE_FIRST", step,
                "Submitted by alice.");
    }

    private void operationHistoryInsert(Connection c, String id) throws SQLException {
        update(c, OPERATION_HISTORY_INSERT, id, EVENT.name(), step, bindingStatus, "Submitted by alice.", "alice");
    }

    private void bindingInsert(Connection c, String id, String subject, String target) throws SQLException {
        update(c, BINDING_INSERT, subject, target, id, bindingStatus);
    }

    private void bindingHistoryInsert(Connection c, String id, String subject, String target) throws SQLException {
        update(c, BINDING_HISTORY_INSERT, subject, target, id, EVENT.name(), bindingStatus, "Submitted by alice.", "alice");
    }

    private void taskInsert(Connection c, String id) throws SQLException {
        update(c, TASK_INSERT, TASK_NAME, "SUBMIT_APPROVAL:" + id, taskData, Timestamp.from(Instant.now()));
    }

    /** What db-scheduler stores for a first step: a serialized HashMap {attempt=1} (seen in the general log). */
    static byte[] serializedStepData() {
        var data = new HashMap<String, String>();
        data.put("attempt", "1");
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
