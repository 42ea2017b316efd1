package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.ScheduledExecutionsFilter;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.testsupport.TestDatabase;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;

/** The production schema on a test database (the persistence adapter's migrations) and a look at its task rows. */
final class Schema {

    private final TestDatabase db;
    private final SchedulerClient rows;

    private Schema(TestDatabase db) {
        this.db = db;
        Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/migration").load().migrate();
        var task = new WorkflowStepTask(() -> {
            throw new IllegalStateException("the inspector runs nothing");
        }, new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)), "inspector");
        this.rows = SchedulerClient.Builder.create(db.dataSource(), task.task())
                .jdbcCustomization(SchedulerTable.dialect(db.dataSource()).customization())
                .build();
    }

    static Schema migrate(TestDatabase db) {
        return new Schema(db);
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
