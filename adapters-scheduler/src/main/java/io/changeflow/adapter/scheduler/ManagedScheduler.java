package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.CurrentlyExecuting;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * This instance's db-scheduler {@link Scheduler}, started and stopped with the application: it runs
 * the {@link WorkflowStepTask} and the {@link RecurringJob}s, polls {@code scheduled_tasks} with
 * lock-and-fetch ({@code SELECT ... FOR UPDATE SKIP LOCKED}, so one row goes to one instance) on
 * every supported server ({@link SchedulerDialect} tells from the server itself), stamps heartbeats on the rows it runs and takes over rows whose heartbeats stopped.
 *
 * <p>Stopping (first among the application's lifecycles: default phase, while the web server still serves and
 * readiness already answers DOWN) runs beside the other stops of its phase: it refuses new picks at once, lets
 * running tasks finish for the stop budget ({@link SchedulerSettings#shutdownWaitWithin}: the shutdown wait, kept
 * inside {@code spring.lifecycle.timeout-per-shutdown-phase}), then releases the rows still running here
 * ({@link ShutdownRelease}) so another instance picks them at its next poll, not after the dead-execution timeout.
 * Only then does db-scheduler interrupt what still runs. Each start builds a new Scheduler (a stopped one cannot
 * be restarted).
 */
final class ManagedScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ManagedScheduler.class);
    /** How long after the release db-scheduler still waits before it interrupts the runs (their rows are gone). */
    static final Duration INTERRUPT_AFTER_RELEASE = Duration.ofSeconds(1);

    /** Never, in practice: rows of an unknown task name are left alone. */
    static final Duration KEEP_UNKNOWN_TASKS = Duration.ofDays(36_500);

    private final AtomicInteger releasedAtStop = new AtomicInteger();

    private final DataSource dataSource;
    private final SchedulerSettings settings;
    private final WorkflowStepTask workflow;
    private final DbSchedulerWorkQueue queue;
    private final List<RecurringTask<Void>> jobs;
    private final Clock clock;
    private final Duration stopBudget;
    private volatile Scheduler scheduler;
    private volatile SchedulerDialect dialect;

    ManagedScheduler(DataSource dataSource, SchedulerSettings settings, WorkflowStepTask workflow,
                     DbSchedulerWorkQueue queue, List<RecurringJob> jobs, Clock clock) {
        this(dataSource, settings, workflow, queue, jobs, clock, settings.shutdownMaxWait());
    }

    /** @param stopBudget how long a stop lets running tasks finish before it releases their rows */
    ManagedScheduler(DataSource dataSource, SchedulerSettings settings, WorkflowStepTask workflow,
                     DbSchedulerWorkQueue queue, List<RecurringJob> jobs, Clock clock, Duration stopBudget) {
        this.stopBudget = Objects.requireNonNull(stopBudget, "stopBudget");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.workflow = Objects.requireNonNull(workflow, "workflow");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.clock = Objects.requireNonNull(clock, "clock");
        var names = new HashSet<String>();
        for (var job : jobs) {
            if (!names.add(job.name())) {
                throw new IllegalArgumentException("two recurring jobs are named " + job.name());
            }
        }
        this.jobs = jobs.stream().map(ManagedScheduler::task).toList();
    }

    private static RecurringTask<Void> task(RecurringJob job) {
        // failures reschedule by the interval, dead runs are revived: db-scheduler's recurring defaults
        return Tasks.recurring(job.name(), Schedules.fixedDelay(job.interval()))
                .execute((instance, context) -> job.work().get());
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        var dialect = SchedulerTable.dialect(dataSource);
        var builder = Scheduler.create(dataSource, List.of(workflow.task()))
                .startTasks(jobs)
                .jdbcCustomization(dialect.customization())
                .tableName(SchedulerTable.NAME)
                .schedulerName(new SchedulerName.Fixed(settings.name()))
                .clock(clock::instant)
                .threads(settings.threads())
                .pollingInterval(settings.pollingInterval())
                .enableImmediateExecution()
                .heartbeatInterval(settings.heartbeatInterval())
                .missedHeartbeatsLimit(settings.missedHeartbeatsLimit())
                // db-scheduler interrupts running tasks after this; the release comes first (stopAndRelease)
                .shutdownMaxWait(stopBudget.plus(INTERRUPT_AFTER_RELEASE))
                // rows of a task name this release does not know (a recurring job of a newer release) stay for an
                // instance that knows it; db-scheduler would delete them after 14 days
                .deleteUnresolvedAfter(KEEP_UNKNOWN_TASKS);
        if (dialect.lockAndFetch()) {
            builder.pollUsingLockAndFetch(0.5, 1.0);
        } else {
            log.warn("{} has no FOR UPDATE SKIP LOCKED (supported: MySQL 8.0+, MariaDB 10.6+): the scheduler "
                    + "polls with fetch-and-lock-on-execute, which is slower under load", dialect.server());
            builder.pollUsingFetchAndLockOnExecute(0.5, 1.0);
        }
        var built = builder.build();
        built.start();
        scheduler = built;
        this.dialect = dialect;
        queue.onDueNow(built::triggerCheckForDueExecutions);
        log.info("scheduler {} started on {}: {} threads, polling every {} with {}, heartbeat every {}, dead after {}, "
                        + "recurring jobs {}", settings.name(), dialect.server(), settings.threads(),
                settings.pollingInterval(), dialect.polling(),
                settings.heartbeatInterval(), settings.effectiveDeadExecutionTimeout(),
                jobs.stream().map(RecurringTask::getName).toList());
    }

    /** Stops and waits until the rows still running here are released (at most the stop budget and a little). */
    @Override
    public void stop() {
        var stopping = detach();
        if (stopping != null) {
            stopAndRelease(stopping);
        }
    }

    /** Stops on its own thread, beside the other stops of the phase (e.g. the readiness drain); then {@code callback}. */
    @Override
    public void stop(Runnable callback) {
        var stopping = detach();
        if (stopping == null) {
            callback.run();
            return;
        }
        Thread.ofPlatform().name("scheduler-stop").start(() -> {
            try {
                stopAndRelease(stopping);
            } finally {
                callback.run();
            }
        });
    }

    private synchronized Scheduler detach() {
        var stopping = scheduler;
        scheduler = null;
        if (stopping != null) {
            queue.onDueNow(() -> { });
        }
        return stopping;
    }

    /**
     * Refuses new picks (db-scheduler's own stop, on a thread of its own), waits up to the stop budget for the
     * running tasks, releases the rows of those still running. db-scheduler interrupts them only after that.
     */
    private void stopAndRelease(Scheduler stopping) {
        var started = System.nanoTime();
        var stopper = Thread.ofPlatform().name("db-scheduler-stop").start(stopping::stop);
        log.info("scheduler {} stopping: no new steps taken; running ones ({}) get {} to finish", settings.name(),
                stopping.getCurrentlyExecuting().size(), stopBudget);
        try {
            if (stopper.join(stopBudget)) {
                log.info("scheduler {} stopped after {} ms", settings.name(), (System.nanoTime() - started) / 1_000_000);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        var running = stopping.getCurrentlyExecuting();
        try {
            var released = ShutdownRelease.release(dataSource, settings.name(), running);
            releasedAtStop.addAndGet(released.size());
            log.warn("scheduler {} stopping: {} still running after {}; released for another instance: {}",
                    settings.name(), running.size(), stopBudget, released);
        } catch (SQLException | RuntimeException e) {
            log.warn("scheduler {} stopping: cannot release the {} steps still running ({}); another instance takes "
                    + "them over after the dead-execution timeout", settings.name(), running.size(), e.toString());
        }
    }

    /** Rows this instance released at a stop because their runs outlasted the stop budget (since the process started). */
    int releasedAtStop() {
        return releasedAtStop.get();
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** Tasks this instance runs right now. */
    List<CurrentlyExecuting> executing() {
        var running = scheduler;
        return running == null ? List.of() : running.getCurrentlyExecuting();
    }

    /** Tasks this instance runs whose heartbeats could not be written lately (the database is unreachable). */
    List<CurrentlyExecuting> staleHeartbeats() {
        var running = scheduler;
        return running == null ? List.of() : running.getCurrentlyExecutingWithStaleHeartbeat();
    }

    /** The server and polling strategy of the last start; empty before the first. */
    Optional<SchedulerDialect> dialect() {
        return Optional.ofNullable(dialect);
    }

    SchedulerSettings settings() {
        return settings;
    }

    DbSchedulerWorkQueue queue() {
        return queue;
    }
}
