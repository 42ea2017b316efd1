package io.changeflow.adapter.scheduler;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A job that runs every {@code interval} on one instance at a time, cluster-wide (a db-scheduler
 * recurring task: one row in {@code scheduled_tasks}, picked by one scheduler per run). Declare each
 * job as a bean of this type; the scheduler adapter registers every such bean.
 *
 * <p>The interval is a fixed delay: the next run is due {@code interval} after the previous run
 * finished, wherever it ran. A run that throws is logged and the job runs again at its next time; a
 * run whose instance died is taken over by another instance after the dead-execution timeout. The
 * first run is due when the job's row is first created (the first start of any instance).
 *
 * @param name     unique and stable across releases (it is the row's key): lower case letters,
 *                 digits and dashes, at most 100 characters, e.g. {@code reconcile-deployments}
 * @param interval the pause between the end of one run and the start of the next; positive
 * @param work     the work; it should be idempotent (a run cut short by a crash runs again in full). What it
 *                 returns is the run's result: a record's numeric and boolean components are counted as
 *                 {@code changeflow_jobs_results_total{job, result}} (e.g. a sweep's {@code failed} and
 *                 {@code rescheduled}); anything else, null included, is not counted
 */
public record RecurringJob(String name, Duration interval, Supplier<?> work) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,99}");

    public RecurringJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(work, "work");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a recurring job's name is lower case letters, digits and dashes, "
                    + "at most 100 characters: '" + name + "'");
        }
        if (name.equals(WorkflowStepTask.NAME)) {
            throw new IllegalArgumentException("'" + name + "' is the workflow's own task name");
        }
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("the interval of " + name + " must be positive, was " + interval);
        }
    }

    /** A job whose run has no result worth counting. */
    public RecurringJob(String name, Duration interval, Runnable action) {
        this(name, interval, runOnly(action));
    }

    private static Supplier<?> runOnly(Runnable action) {
        Objects.requireNonNull(action, "action");
        return () -> {
            action.run();
            return null;
        };
    }
}
