package io.changeflow.adapter.scheduler;

import java.time.Duration;
import java.util.Objects;
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
 * @param action   the work; it should be idempotent (a run cut short by a crash runs again in full)
 */
public record RecurringJob(String name, Duration interval, Runnable action) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,99}");

    public RecurringJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(action, "action");
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
}
