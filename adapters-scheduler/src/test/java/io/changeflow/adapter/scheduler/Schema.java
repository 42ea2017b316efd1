package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.ScheduledExecutionsFilter;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.testsupport.TestDatabase;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The production schema (the persistence adapter's migrations) on a fresh test database for one test class,
 * and a look at its task rows. Register it as a static extension: it migrates before the first test, empties
 * the task table before each test and closes the {@link Node}s a test opened after it.
 */
final class Schema implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private final TestDatabase db = TestDatabase.freshSchema();
    private final List<Node> nodes = new ArrayList<>();
    private SchedulerClient rows;

    private Schema() {
    }

    static Schema onFreshDatabase() {
        return new Schema();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        db.beforeAll(context);
        Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/migration").load().migrate();
        var task = new WorkflowStepTask(() -> {
            throw new IllegalStateException("the inspector runs nothing");
        }, new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)), "inspector");
        this.rows = SchedulerClient.Builder.create(db.dataSource(), task.task())
                .jdbcCustomization(SchedulerTable.dialect(db.dataSource()).customization())
                .build();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        clear();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        nodes.forEach(Node::close);
        nodes.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        db.afterAll(context);
    }

    /** The test database under the schema. */
    TestDatabase db() {
        return db;
    }

    /** Closes {@code node} after the running test. */
    Node closedAfterTest(Node node) {
        nodes.add(node);
        return node;
    }

    /** Deletes every task row. */
    void clear() {
        try (var connection = db.dataSource().getConnection(); var statement = connection.createStatement()) {
            statement.executeUpdate("delete from " + SchedulerTable.NAME);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets the heartbeat of the row of {@code kind} and {@code ref} {@code age} into the past, as if it had lagged. */
    void ageHeartbeat(StepKind kind, String ref, Duration age) {
        try (var connection = db.dataSource().getConnection();
             var statement = connection.prepareStatement("update " + SchedulerTable.NAME
                     + " set last_heartbeat = ? where task_name = ? and task_instance = ?")) {
            statement.setTimestamp(1, Timestamp.from(Instant.now().minus(age)));
            statement.setString(2, WorkflowStepTask.NAME);
            statement.setString(3, kind.name() + ":" + ref);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes a workflow row as another release could have: {@code instanceId} with exactly {@code data}, due now. */
    void insertWorkflowRow(String instanceId, HashMap<String, String> data) {
        rows.scheduleIfNotExists(new TaskInstance<>(WorkflowStepTask.NAME, instanceId, data), Instant.now());
    }

    /** The row of a workflow step by its instance id, whatever its kind. */
    Optional<ScheduledExecution<Object>> row(String instanceId) {
        return rows.getScheduledExecution(TaskInstanceId.of(WorkflowStepTask.NAME, instanceId));
    }

    Optional<ScheduledExecution<Object>> row(StepKind kind, String ref) {
        return rows.getScheduledExecution(WorkflowStepTask.id(kind, ref));
    }

    /** Every row, recurring jobs included. */
    List<ScheduledExecution<Object>> all() {
        return rows.getScheduledExecutions(ScheduledExecutionsFilter.all());
    }

    List<ScheduledExecution<Object>> workflowRows() {
        return all().stream().filter(r -> r.getTaskInstance().getTaskName().equals(WorkflowStepTask.NAME)).toList();
    }

    @SuppressWarnings("unchecked")
    static Step step(ScheduledExecution<Object> row) {
        return WorkflowStepTask.step(row.getTaskInstance().getId(), (Map<String, String>) row.getData());
    }
}
