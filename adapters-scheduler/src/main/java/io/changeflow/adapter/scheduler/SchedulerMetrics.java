package io.changeflow.adapter.scheduler;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler on the meter registry:
 * <ul>
 *   <li>{@value #WAITING}, {@value #RUNNING}, {@value #FAILING} (gauges, cluster-wide: every instance reports the
 *       same numbers) and {@value #CAPACITY} (this instance's backlog capacity), read from {@code scheduled_tasks}
 *       at most once per {@link #REFRESH} whatever the scrape rate; NaN while the table cannot be read;</li>
 *   <li>{@value #RUNS} {@code {job, outcome}} (timer, outcome {@code success} or {@code failure}): every run of a
 *       recurring job on this instance;</li>
 *   <li>{@value #RESULTS} {@code {job, result}} (counter): what the runs did, from the numeric and boolean
 *       components of the run's result record (e.g. {@code sweep-stuck-requests} {@code failed},
 *       {@code rescheduled}; {@code reconcile-deployments} {@code examined}, {@code advanced}), snake case;</li>
 *   <li>{@value #LEFT} {@code {reason}} (counter, {@code format} or {@code kind}): step rows this instance met and
 *       left for an instance of another release, because their format version or step kind is unknown to it.</li>
 * </ul>
 * Tags are job names and record component names: bounded by the code. A registry that throws never changes a
 * job's run.
 */
final class SchedulerMetrics {

    static final String WAITING = "changeflow.scheduler.steps.waiting";
    static final String RUNNING = "changeflow.scheduler.steps.running";
    static final String FAILING = "changeflow.scheduler.steps.failing";
    static final String CAPACITY = "changeflow.scheduler.backlog.capacity";
    static final String RUNS = "changeflow.jobs.runs";
    static final String RESULTS = "changeflow.jobs.results";
    static final String LEFT = "changeflow.scheduler.steps.left";
    static final Duration REFRESH = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(SchedulerMetrics.class);

    private final MeterRegistry registry;
    private final DataSource dataSource;
    private volatile StepCounts last;
    private volatile long lastReadAt;

    SchedulerMetrics(MeterRegistry registry, DataSource dataSource) {
        this.registry = registry;
        this.dataSource = dataSource;
    }

    /** Registers the step gauges and the backlog capacity of {@code queue}. */
    void bindSteps(DbSchedulerWorkQueue queue) {
        if (registry == null) {
            return;
        }
        gauge(WAITING, "Workflow steps waiting to run, cluster-wide (the backlog)", StepCounts::waiting);
        gauge(RUNNING, "Workflow steps running now on some instance, cluster-wide", StepCounts::running);
        gauge(FAILING, "Workflow steps retried after an exception, cluster-wide", StepCounts::failing);
        Gauge.builder(CAPACITY, queue, DbSchedulerWorkQueue::capacity)
                .description("The backlog capacity (changeflow.workflow.backlog-capacity): past it new requests wait in a failure state")
                .register(registry);
    }

    /** Registers the count of step rows {@code task} left for an instance of another release. */
    void bindLeft(WorkflowStepTask task) {
        if (registry == null) {
            return;
        }
        for (var reason : List.of("format", "kind")) {
            FunctionCounter.builder(LEFT, task, t -> t.leftForAnotherInstance(reason))
                    .description("Step rows left for an instance of another release: unknown format version or step kind")
                    .tags("reason", reason).register(registry);
        }
    }

    /** {@code job} with its runs timed and its results counted. */
    RecurringJob measured(RecurringJob job) {
        if (registry == null) {
            return job;
        }
        return new RecurringJob(job.name(), job.interval(), () -> {
            var start = System.nanoTime();
            try {
                var result = job.work().get();
                ran(job.name(), "success", start);
                counted(job.name(), result);
                return result;
            } catch (RuntimeException | Error e) {
                ran(job.name(), "failure", start);
                throw e;
            }
        });
    }

    private void gauge(String name, String description, ToIntFunction<StepCounts> value) {
        Gauge.builder(name, this, metrics -> metrics.counts(value)).description(description).register(registry);
    }

    private double counts(ToIntFunction<StepCounts> value) {
        var now = System.nanoTime();
        var counts = last;
        if (counts == null || now - lastReadAt > REFRESH.toNanos()) {
            try {
                counts = StepCounts.read(dataSource);
            } catch (SQLException | RuntimeException e) {
                log.debug("cannot read the workflow steps for the gauges", e);
                last = null;
                return Double.NaN;
            }
            last = counts;
            lastReadAt = now;
        }
        return value.applyAsInt(counts);
    }

    private void ran(String job, String outcome, long start) {
        try {
            Timer.builder(RUNS).description("Runs of a recurring job on this instance, by job and outcome")
                    .tags("job", job, "outcome", outcome).register(registry)
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            log.debug("metric {} failed; the job is unaffected", RUNS, e);
        }
    }

    private void counted(String job, Object result) {
        if (!(result instanceof Record record)) {
            return;
        }
        try {
            for (var component : record.getClass().getRecordComponents()) {
                var value = component.getAccessor().invoke(record);
                var amount = value instanceof Number n ? n.doubleValue() : value instanceof Boolean b ? (b ? 1 : 0) : -1;
                if (amount >= 0) {
                    Counter.builder(RESULTS).description("What the runs of a recurring job did, by job and result")
                            .tags("job", job, "result", snakeCase(component.getName())).register(registry)
                            .increment(amount);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("metric {} failed; the job is unaffected", RESULTS, e);
        }
    }

    static String snakeCase(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
