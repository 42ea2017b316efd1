package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import io.changeflow.adapter.scheduler.StepPlacement.Placement;
import io.changeflow.application.port.out.WorkQueue;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link WorkQueue} on db-scheduler's {@code scheduled_tasks}: every step is a row of the
 * {@link WorkflowStepTask}, so it survives a crash and any instance runs it.
 *
 * <p>The backlog bound counts the workflow rows not picked right now, cluster-wide. It is checked
 * before a new row is written, not atomically with it: callers racing at the boundary can overshoot
 * it by their number, which is harmless for an overload guard and keeps admission free of locks.
 * Replacing a pending step never counts as new work, and continuations written by the task itself
 * ({@code Reschedule}, {@code Next}) bypass the bound.
 *
 * <p>With tracing, a step scheduled here joins the trace of its request ({@link RequestTraces}); continuations
 * carry the trace of the run that wrote them.
 */
final class DbSchedulerWorkQueue implements WorkQueue {

    private static final Logger log = LoggerFactory.getLogger(DbSchedulerWorkQueue.class);
    private static final String SUMMARY = "select"
            + " coalesce(sum(case when picked then 0 else 1 end), 0),"
            + " coalesce(sum(case when not picked and execution_time <= current_timestamp(3) then 1 else 0 end), 0),"
            + " coalesce(sum(case when picked then 1 else 0 end), 0),"
            + " coalesce(sum(case when consecutive_failures > 0 then 1 else 0 end), 0),"
            + " min(case when not picked and execution_time <= current_timestamp(3) then execution_time end)"
            + " from " + SchedulerTable.NAME + " where task_name = ?";

    private final DataSource dataSource;
    private final SchedulerClient client;
    private final StepPlacement placement;
    private final StepTraces traces;
    private final RequestTraces requestTraces;
    private final int capacity;
    private final Clock clock;
    private volatile Runnable dueNow = () -> { };

    DbSchedulerWorkQueue(DataSource dataSource, WorkflowStepTask task, int capacity, Clock clock) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the backlog capacity must be positive, was " + capacity);
        }
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.capacity = capacity;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.traces = task.traces();
        this.requestTraces = new RequestTraces(dataSource, clock);
        var customization = SchedulerTable.dialect(dataSource).customization();
        this.client = SchedulerClient.Builder.create(dataSource, task.task())
                .jdbcCustomization(customization)
                .build();
        this.placement = StepPlacement.withinBacklog(client, dataSource, capacity, customization, clock);
    }

    @Override
    public boolean schedule(Step step, Duration delay) {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(delay, "delay");
        var dueAtOnce = delay.isZero() || delay.isNegative();
        var time = clock.instant().plus(dueAtOnce ? Duration.ZERO : delay);
        return placed(step, placement.place(step, trace(step), time), dueAtOnce);
    }

    /** One insert while the backlog has room by this instance's estimate ({@link StepPlacement#placeNew}). */
    @Override
    public boolean scheduleFirst(Step step) {
        Objects.requireNonNull(step, "step");
        var trace = traces.enabled() ? requestTraces.traceForNew(step.ref(), traces.current()) : Map.<String, String>of();
        return placed(step, placement.placeNew(step, trace, clock.instant()), true);
    }

    private boolean placed(Step step, Optional<Placement> placed, boolean dueAtOnce) {
        if (placed.isEmpty()) {
            log.warn("backlog full ({} workflow steps waiting); refused {}", capacity, step.instanceId());
            return false;
        }
        if (placed.get() == Placement.RUNNING) {
            log.debug("{} is running right now; left to finish", step.instanceId());
        } else if (dueAtOnce) {
            dueNow.run();
        }
        return true;
    }

    /** The trace the step joins: its request's (the first scheduler's), else the caller's; none without tracing. */
    private Map<String, String> trace(Step step) {
        return traces.enabled() ? requestTraces.traceFor(step.ref(), traces.current()) : Map.of();
    }

    /** Deletes at most {@code limit} request traces past their retention (the job {@code purge-step-traces}). */
    int forgetOldTraces(int limit) {
        try {
            return requestTraces.forgetOld(limit);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot delete old request traces", e);
        }
    }

    @Override
    public boolean isScheduled(StepKind kind, String ref) {
        return client.getScheduledExecution(WorkflowStepTask.id(kind, ref)).isPresent();
    }

    @Override
    public Optional<Scheduled> scheduled(StepKind kind, String ref) {
        return client.getScheduledExecution(WorkflowStepTask.id(kind, ref))
                .map(execution -> new Scheduled(WorkflowStepTask.step(WorkflowStepTask.id(kind, ref).getId(),
                        WorkflowStepTask.dataOf(execution.getData())), execution.getExecutionTime()));
    }

    /**
     * Brings the pending row forward with db-scheduler's version-guarded reschedule and the data as read, so a run
     * that rewrote the row in between (or picked it) wins: the wake then changes nothing.
     */
    @Override
    public boolean wake(StepKind kind, String ref) {
        var id = WorkflowStepTask.id(kind, ref);
        var now = clock.instant();
        var pending = client.getScheduledExecution(id);
        if (pending.isEmpty() || pending.get().isPicked() || !pending.get().getExecutionTime().isAfter(now)) {
            return false;
        }
        try {
            if (!client.reschedule(id, now, pending.get().getData())) {
                return false;
            }
        } catch (TaskInstanceCurrentlyExecutingException | TaskInstanceNotFoundException e) {
            return false;
        }
        dueNow.run();
        return true;
    }

    @Override
    public int backlog() {
        return placement.backlog();
    }

    @Override
    public Backlog backlogSummary() {
        // Due by the database clock; sessions and db-scheduler's timestamps are UTC (SchedulerDialect).
        try (var connection = dataSource.getConnection();
             var statement = connection.prepareStatement(SUMMARY)) {
            statement.setString(1, WorkflowStepTask.NAME);
            try (var rows = statement.executeQuery()) {
                rows.next();
                var oldest = rows.getObject(5, java.time.LocalDateTime.class);
                return new Backlog(rows.getInt(1), rows.getInt(2), rows.getInt(3), rows.getInt(4), capacity,
                        Optional.ofNullable(oldest).map(t -> t.toInstant(java.time.ZoneOffset.UTC)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the workflow backlog", e);
        }
    }

    int capacity() {
        return capacity;
    }

    /** Lets work that is due at once wake the local scheduler instead of waiting for its next poll. */
    void onDueNow(Runnable wakeUp) {
        this.dueNow = Objects.requireNonNull(wakeUp, "wakeUp");
    }
}
