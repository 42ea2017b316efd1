package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import io.changeflow.application.port.out.WorkQueue.Step;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Writes a step as a row of the {@link WorkflowStepTask}: a new row when its instance has none, else the pending
 * row is updated; a running instance is left alone. Races with pickers and other writers are settled by
 * re-reading (the row's version guards every update).
 *
 * <p>{@link #withinBacklog Within the backlog} a new row is written only while fewer than the capacity of
 * workflow rows wait (the count read before the new row, not atomically with it); replacing a pending row never
 * counts. {@link #unbounded Unbounded} placement (continuations the task writes itself) is never refused.
 */
final class StepPlacement {

    /** The width of {@code scheduled_tasks.task_instance}. */
    static final int MAX_INSTANCE_ID_LENGTH = 100;

    private static final int MAX_PLACEMENT_TRIES = 5;
    private static final String COUNT_BACKLOG =
            "select count(*) from " + SchedulerTable.NAME + " where task_name = ? and picked = ?";

    /** What placing a step did. */
    enum Placement {
        /** A new row. */
        ADDED,
        /** The pending row of the same instance got the new time and data. */
        REPLACED,
        /** The instance is running right now: left alone (it re-reads the state anyway). */
        RUNNING
    }

    private final SchedulerClient client;
    /** Where the backlog is counted; null when unbounded. */
    private final DataSource dataSource;
    private final int capacity;

    private StepPlacement(SchedulerClient client, DataSource dataSource, int capacity) {
        this.client = client;
        this.dataSource = dataSource;
        this.capacity = capacity;
    }

    /** Refuses a new row while {@code capacity} workflow rows wait (counted in {@code dataSource}). */
    static StepPlacement withinBacklog(SchedulerClient client, DataSource dataSource, int capacity) {
        return new StepPlacement(client, Objects.requireNonNull(dataSource, "dataSource"), capacity);
    }

    /** Never refuses a new row. */
    static StepPlacement unbounded(SchedulerClient client) {
        return new StepPlacement(client, null, 0);
    }

    /**
     * Writes {@code step} due at {@code time}. A pending row keeps its trace context when {@code trace} is empty.
     *
     * @param trace the trace context to store with the step (row fields, {@link StepTraces}); empty: none
     * @return empty when the backlog is full and the step would need a new row
     */
    Optional<Placement> place(Step step, Map<String, String> trace, Instant time) {
        var id = step.instanceId();
        if (id.length() > MAX_INSTANCE_ID_LENGTH) {
            throw new IllegalArgumentException("a step instance id has at most " + MAX_INSTANCE_ID_LENGTH
                    + " characters: " + id);
        }
        var taskInstanceId = TaskInstanceId.of(WorkflowStepTask.NAME, id);
        var data = WorkflowStepTask.data(step, trace);
        for (var tries = 0; tries < MAX_PLACEMENT_TRIES; tries++) {
            var existing = client.getScheduledExecution(taskInstanceId);
            if (existing.isEmpty()) {
                if (!admitsNew()) {
                    return Optional.empty();
                }
                if (client.scheduleIfNotExists(new TaskInstance<>(WorkflowStepTask.NAME, id, data), time)) {
                    return Optional.of(Placement.ADDED);
                }
                continue; // created by someone else in between: look again
            }
            if (existing.get().isPicked()) {
                return Optional.of(Placement.RUNNING);
            }
            var replacing = trace.isEmpty()
                    ? WorkflowStepTask.data(step, StepTraces.storedIn(WorkflowStepTask.dataOf(existing.get().getData())))
                    : data;
            try {
                if (client.reschedule(taskInstanceId, time, replacing)) {
                    return Optional.of(Placement.REPLACED);
                }
                // lost the race on the row's version (picked or rescheduled meanwhile): look again
            } catch (TaskInstanceCurrentlyExecutingException e) {
                return Optional.of(Placement.RUNNING);
            } catch (TaskInstanceNotFoundException e) {
                // finished and deleted in between: look again
            }
        }
        throw new IllegalStateException("could not place " + id + ": its row kept changing under "
                + MAX_PLACEMENT_TRIES + " attempts");
    }

    private boolean admitsNew() {
        return dataSource == null || backlog() < capacity;
    }

    /** The workflow rows not picked right now, cluster-wide. */
    int backlog() {
        if (dataSource == null) {
            throw new IllegalStateException("an unbounded placement counts no backlog");
        }
        try (var connection = dataSource.getConnection();
             var statement = connection.prepareStatement(COUNT_BACKLOG)) {
            statement.setString(1, WorkflowStepTask.NAME);
            statement.setBoolean(2, false);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count the workflow backlog", e);
        }
    }
}
