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
 * and running tasks, the database server and polling strategy ({@link SchedulerDialect}), and the
 * workflow steps cluster-wide: waiting (the backlog, with its capacity),
 * running, and failing (retried after an exception).
 */
final class SchedulerHealthIndicator implements HealthIndicator {

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
        scheduler.dialect().ifPresent(d -> health.withDetail("database", d.server()).withDetail("polling", d.polling()));
        var stale = scheduler.staleHeartbeats().size();
        if (stale > 0) {
            health.down().withDetail("staleHeartbeats", stale);
        }
        try {
            var counts = StepCounts.read(dataSource);
            var steps = new LinkedHashMap<String, Object>();
            steps.put("waiting", counts.waiting());
            steps.put("backlogCapacity", scheduler.queue().capacity());
            steps.put("running", counts.running());
            steps.put("failing", counts.failing());
            health.withDetail("workflowSteps", steps);
        } catch (SQLException e) {
            health.down().withDetail("error", "cannot read " + SchedulerTable.NAME + ": " + e.getClass().getSimpleName());
        }
        return health.build();
    }
}
