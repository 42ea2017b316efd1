package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.serializer.Serializer;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import io.changeflow.application.port.out.WorkQueue.Step;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
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
 *
 * <p>The first step of a new request ({@link #placeNew}) is one insert (issue 33): no existence read, and the
 * backlog is counted only when this instance's estimate (the last count, younger than {@link #COUNT_FRESH_FOR},
 * plus the rows it added since) comes within {@link #headroom} of the capacity; a refusal is always decided by an
 * exact count. Other instances' rows added since the last count are not seen, so the bound can be overshot by what
 * they add within {@link #COUNT_FRESH_FOR} beyond the headroom, like the racing callers the count never saw.
 */
final class StepPlacement {

    /** The width of {@code scheduled_tasks.task_instance}. */
    static final int MAX_INSTANCE_ID_LENGTH = 100;

    /** How long a backlog count stands for the estimate of {@link #placeNew}. */
    static final Duration COUNT_FRESH_FOR = Duration.ofSeconds(1);

    private static final int MAX_PLACEMENT_TRIES = 5;
    private static final String COUNT_BACKLOG =
            "select count(*) from " + SchedulerTable.NAME + " where task_name = ? and picked = ?";
    /** db-scheduler's own insert of a new execution (JdbcTaskRepository.createIfNotExists, 16.12.0, no priority). */
    private static final String INSERT = "insert into " + SchedulerTable.NAME
            + " (task_name, task_instance, task_data, execution_time, picked, version) values (?, ?, ?, ?, ?, ?)";

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
    private final JdbcCustomization customization;
    private final Clock clock;
    /** The last exact count, when it was taken, and the rows {@link #placeNew} added since; null: none yet. */
    private Estimate estimate;

    private record Estimate(int counted, Instant at, int added) {}

    private StepPlacement(SchedulerClient client, DataSource dataSource, int capacity, JdbcCustomization customization,
                          Clock clock) {
        this.client = client;
        this.dataSource = dataSource;
        this.capacity = capacity;
        this.customization = customization;
        this.clock = clock;
    }

    /** Refuses a new row while {@code capacity} workflow rows wait (counted in {@code dataSource}). */
    static StepPlacement withinBacklog(SchedulerClient client, DataSource dataSource, int capacity,
                                       JdbcCustomization customization, Clock clock) {
        return new StepPlacement(client, Objects.requireNonNull(dataSource, "dataSource"), capacity,
                Objects.requireNonNull(customization, "customization"), Objects.requireNonNull(clock, "clock"));
    }

    /** Never refuses a new row. */
    static StepPlacement unbounded(SchedulerClient client) {
        return new StepPlacement(client, null, 0, null, null);
    }

    /**
     * {@link #place} for a step whose instance has no row yet (the first step of a request just opened): one insert
     * while the estimate leaves room, no existence read. When the insert finds a row, or the estimate comes near the
     * capacity, it is placed as {@link #place} does (a pending row replaced, an exact count before a new one).
     */
    Optional<Placement> placeNew(Step step, Map<String, String> trace, Instant time) {
        if (dataSource == null) {
            throw new IllegalStateException("only a placement within the backlog places new steps by insert");
        }
        var id = checkedId(step);
        if (roomByEstimate() && insert(id, WorkflowStepTask.data(step, trace), time)) {
            added();
            return Optional.of(Placement.ADDED);
        }
        return place(step, trace, time);
    }

    /** The most rows waiting for which {@link #placeNew} inserts without counting: a tenth of the capacity below it. */
    static int headroom(int capacity) {
        return Math.max(1, capacity / 10);
    }

    private synchronized boolean roomByEstimate() {
        var now = clock.instant();
        if (estimate == null || now.isBefore(estimate.at()) || !now.isBefore(estimate.at().plus(COUNT_FRESH_FOR))) {
            estimate = new Estimate(backlog(), now, 0);
        }
        return estimate.counted() + estimate.added() < capacity - headroom(capacity);
    }

    private synchronized void added() {
        if (estimate != null) {
            estimate = new Estimate(estimate.counted(), estimate.at(), estimate.added() + 1);
        }
    }

    /** One insert of a new pending row; false when the instance has a row already. */
    private boolean insert(String id, HashMap<String, String> data, Instant time) {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(INSERT)) {
            statement.setString(1, WorkflowStepTask.NAME);
            statement.setString(2, id);
            statement.setBytes(3, Serializer.DEFAULT_JAVA_SERIALIZER.serialize(data));
            customization.setInstant(statement, 4, time);
            statement.setBoolean(5, false);
            statement.setLong(6, 1L);
            return statement.executeUpdate() == 1;
        } catch (SQLException e) {
            if (e instanceof SQLIntegrityConstraintViolationException
                    || e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return false; // the primary key (task name, instance) exists: the instance has a row
            }
            throw new IllegalStateException("cannot write the step " + id, e);
        }
    }

    private static String checkedId(Step step) {
        var id = step.instanceId();
        if (id.length() > MAX_INSTANCE_ID_LENGTH) {
            throw new IllegalArgumentException("a step instance id has at most " + MAX_INSTANCE_ID_LENGTH
                    + " characters: " + id);
        }
        return id;
    }

    /**
     * Writes {@code step} due at {@code time}. A pending row keeps its trace context when {@code trace} is empty.
     *
     * @param trace the trace context to store with the step (row fields, {@link StepTraces}); empty: none
     * @return empty when the backlog is full and the step would need a new row
     */
    Optional<Placement> place(Step step, Map<String, String> trace, Instant time) {
        var id = checkedId(step);
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
                var counted = rows.getInt(1);
                synchronized (this) {
                    estimate = new Estimate(counted, clock.instant(), 0);
                }
                return counted;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count the workflow backlog", e);
        }
    }
}
