package io.changeflow.adapter.scheduler;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.testsupport.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * One application instance on the test schema, wired as {@link SchedulerConfiguration} wires it:
 * its own connection pool, work queue and scheduler. The schema closes it after the test that made it.
 */
final class Node implements AutoCloseable {

    private final HikariDataSource pool;
    private final DbSchedulerWorkQueue queue;
    private final ManagedScheduler scheduler;
    private final WorkflowStepTask task;

    private Node(TestDatabase db, SchedulerSettings settings, int capacity, RunDueStep runner, List<RecurringJob> jobs) {
        this(db, settings, capacity, runner, jobs, StepTraces.NONE);
    }

    private Node(TestDatabase db, SchedulerSettings settings, int capacity, RunDueStep runner, List<RecurringJob> jobs,
                 StepTraces traces) {
        var config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(settings.threads() + 4);
        config.setMinimumIdle(1);
        config.setPoolName("node-" + settings.name());
        this.pool = new HikariDataSource(config);
        this.task = new WorkflowStepTask(() -> runner, traces, settings.retryBackoff(), settings.name());
        this.queue = new DbSchedulerWorkQueue(pool, task, capacity, Clock.systemUTC());
        this.scheduler = new ManagedScheduler(pool, settings, task, queue, jobs, Clock.systemUTC());
    }

    /**
     * Short intervals: heartbeat 100 ms, dead after 1 s without one (ten missed heartbeats, a margin for
     * a busy build machine), polling 100 ms, retries after 300 ms doubling to 1 s.
     */
    static SchedulerSettings fast(String name) {
        return new SchedulerSettings(Duration.ofMillis(100), 4, Duration.ofMillis(100), Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(1), name);
    }

    static Node of(Schema schema, String name, RunDueStep runner) {
        return schema.closedAfterTest(new Node(schema.db(), fast(name), 10_000, runner, List.of()));
    }

    /** An instance whose steps are traced by {@code traces}. */
    static Node traced(Schema schema, String name, RunDueStep runner, StepTraces traces) {
        return schema.closedAfterTest(new Node(schema.db(), fast(name), 10_000, runner, List.of(), traces));
    }

    static Node of(Schema schema, SchedulerSettings settings, int capacity, RunDueStep runner, List<RecurringJob> jobs) {
        return schema.closedAfterTest(new Node(schema.db(), settings, capacity, runner, jobs));
    }

    Node start() {
        scheduler.start();
        return this;
    }

    /** A graceful stop: running steps may finish. */
    void stop() {
        scheduler.stop();
    }

    /** A graceful stop as Spring runs it at SIGTERM: on the scheduler's own thread, {@code done} when it is over. */
    void stop(Runnable done) {
        scheduler.stop(done);
    }

    /** Rows released at a stop because their runs outlasted the stop budget. */
    int releasedAtStop() {
        return scheduler.releasedAtStop();
    }

    /**
     * The instance dies: its connections are gone, so from now on it can neither stamp heartbeats nor
     * complete, pick or write anything (its threads linger until {@link #close()}).
     */
    void kill() {
        pool.close();
    }

    WorkflowStepTask task() {
        return task;
    }

    DbSchedulerWorkQueue queue() {
        return queue;
    }

    @Override
    public void close() {
        try {
            scheduler.stop();
        } finally {
            pool.close();
        }
    }
}
