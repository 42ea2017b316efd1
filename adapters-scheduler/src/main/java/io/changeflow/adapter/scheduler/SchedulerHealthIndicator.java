package io.changeflow.adapter.scheduler;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The scheduler as {@code scheduler} in {@code /actuator/health}. DOWN while this instance's
 * scheduler is not running, while heartbeats of the tasks it runs cannot be written (another instance
 * would take them over), or when the table cannot be read. Details: this instance's name, threads
 * and running tasks, and the workflow steps cluster-wide: waiting (the backlog, with its capacity),
 * running, and failing (retried after an exception).
 */
final class SchedulerHealthIndicator implements HealthIndicator {

    private static final String COUNT_STEPS = "select"
            + " sum(case when picked then 0 else 1 end),"
            + " sum(case when picked then 1 else 0 end),"
            + " sum(case when consecutive_failures > 0 then 1 else 0 end)"
            + " from " + SchedulerTable.NAME + " where task_name = ?";

    private final ManagedScheduler scheduler;
    private final DataSource dataSource;

    SchedulerHealthIndicator(ManagedScheduler scheduler, DataSource dataSource) {
        this.scheduler = scheduler;
        this.dataSource = dataSource;
    }

    @Override
    public Health health() {
        var settings = scheduler.settings();
        var health = Health.up()
                .withDetail("name", settings.name())
                .withDetail("threads", settings.threads());
        if (!scheduler.isRunning()) {
            return health.down().withDetail("state", "stopped").build();
        }
        health.withDetail("state", "running").withDetail("executing", scheduler.executing().size());
        var stale = scheduler.staleHeartbeats().size();
        if (stale > 0) {
            health.down().withDetail("staleHeartbeats", stale);
        }
        try (var connection = dataSource.getConnection();
             var statement = connection.prepareStatement(COUNT_STEPS)) {
            statement.setString(1, WorkflowStepTask.NAME);
            try (var rows = statement.executeQuery()) {
                rows.next();
                var steps = new LinkedHashMap<String, Object>();
                steps.put("waiting", rows.getInt(1));
                steps.put("backlogCapacity", scheduler.queue().capacity());
                steps.put("running", rows.getInt(2));
                steps.put("failing", rows.getInt(3));
                health.withDetail("workflowSteps", steps);
            }
        } catch (SQLException e) {
            health.down().withDetail("error", "cannot read " + SchedulerTable.NAME + ": " + e.getClass().getSimpleName());
        }
        return health.build();
    }
}
