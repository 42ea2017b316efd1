package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.CurrentlyExecuting;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 * <p>Stopping (first among the application's lifecycles: default phase) refuses new picks, lets
 * running tasks finish for {@link SchedulerSettings#shutdownMaxWait()}, then interrupts them and
 * waits as long again; a task still running when the process ends keeps its row picked and is taken
 * over by another instance once its heartbeats are older than the dead-execution timeout. Each
 * start builds a new Scheduler (a stopped one cannot be restarted).
 */
final class ManagedScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ManagedScheduler.class);

    private final DataSource dataSource;
    private final SchedulerSettings settings;
    private final WorkflowStepTask workflow;
    private final DbSchedulerWorkQueue queue;
    private final List<RecurringTask<Void>> jobs;
    private final Clock clock;
    private volatile Scheduler scheduler;
    private volatile SchedulerDialect dialect;

    ManagedScheduler(DataSource dataSource, SchedulerSettings settings, WorkflowStepTask workflow,
                     DbSchedulerWorkQueue queue, List<RecurringJob> jobs, Clock clock) {
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
                .shutdownMaxWait(settings.shutdownMaxWait());
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

    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        var stopping = scheduler;
        scheduler = null;
        queue.onDueNow(() -> { });
        stopping.stop();
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
