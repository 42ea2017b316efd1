package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.domain.polling.ExponentialBackoff;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The db-scheduler task that runs workflow steps. One row per step instance: task name
 * {@value #NAME}, instance id {@link Step#instanceId() KIND:ref}, data the step's attempt and data.
 *
 * <p><b>Row format.</b> The data is a {@code java.util.HashMap<String, String>} (Java
 * serialization, db-scheduler's default): {@value #FORMAT} holds the format version ({@value #CURRENT_FORMAT}; a
 * row without it, written before the key existed, is format 1), {@value #ATTEMPT} the attempt, every step data entry
 * is stored under {@value #DATA_PREFIX}{@code <key>}, the trace context of whatever scheduled it under
 * {@value StepTraces#PREFIX}{@code <field>} ({@link StepTraces}). Only JDK types are in the blob, so rows written
 * by one release are read by the next however the application's classes move; keys a release does not know are
 * ignored by it. A release that changes what a key means raises the format version; a release that meets a row of a
 * higher version, or of a step kind it does not know, leaves it for an instance that does (issue 31): the row is
 * put back unchanged {@link #LEAVE_FOR} later, never run, failed nor deleted, and counted
 * ({@link #leftForAnotherInstance}).
 *
 * <p><b>Running.</b> A due row runs through {@link RunDueStep}; its outcome is applied to the
 * same row: done deletes it, reschedule updates it in place (time and data), next turns it into the
 * follower's row in one update (or, when the follower already has a row, updates that first and
 * then deletes the current one; a crash in between runs the current step again). Removal and update
 * are guarded by the row's version, so a run that was declared dead and taken over by another
 * instance can no longer touch the row. Anything thrown (an unregistered kind, a failed
 * state write, a JVM error) keeps the row and runs it again after a bounded exponential backoff, with
 * the attempt counted up; so does a run whose instance died. A run still going on in this very process is
 * never declared dead by this process (a starved JVM whose heartbeats lagged): it is not run a second time
 * beside itself.
 */
final class WorkflowStepTask {

    static final String NAME = "workflow-step";
    static final String FORMAT = "format";
    /** The format version this release writes and the highest it reads. */
    static final int CURRENT_FORMAT = 1;
    /** How much later a row this release cannot read is due again (for an instance that can). */
    static final Duration LEAVE_FOR = Duration.ofSeconds(15);
    static final String ATTEMPT = "attempt";
    static final String DATA_PREFIX = "data.";

    @SuppressWarnings({"unchecked", "rawtypes"})
    static final Class<HashMap<String, String>> DATA_CLASS = (Class) HashMap.class;

    private static final Logger log = LoggerFactory.getLogger(WorkflowStepTask.class);

    private final Supplier<RunDueStep> runner;
    private final DatabaseBudgets budgets;
    private final StepTraces traces;
    private final ExponentialBackoff retry;
    private final String schedulerName;
    /** The step instances this process is running right now. */
    private final Set<String> runningHere = ConcurrentHashMap.newKeySet();
    /** Rows left for another instance since the start, by reason ({@code format}, {@code kind}). */
    private final Map<String, LongAdder> left = new ConcurrentHashMap<>();
    private final Task<HashMap<String, String>> task;

    /**
     * @param runner        looked up whenever a step runs, so the task can exist before the workflow's beans
     * @param retry         the delay before re-running a step that threw, by consecutive failures
     * @param schedulerName this process's scheduler name ({@code scheduled_tasks.picked_by} of its runs)
     */
    WorkflowStepTask(Supplier<RunDueStep> runner, ExponentialBackoff retry, String schedulerName) {
        this(runner, StepTraces.NONE, retry, schedulerName);
    }

    /** @param traces where a run's span comes from and what trace context a row stores */
    WorkflowStepTask(Supplier<RunDueStep> runner, StepTraces traces, ExponentialBackoff retry, String schedulerName) {
        this(runner, traces, retry, schedulerName, DatabaseBudgets.NONE);
    }

    /** @param budgets every run within a long job's database budget (its own pool wait; issue 34) */
    WorkflowStepTask(Supplier<RunDueStep> runner, StepTraces traces, ExponentialBackoff retry, String schedulerName,
                     DatabaseBudgets budgets) {
        this.budgets = Objects.requireNonNull(budgets, "budgets");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.traces = Objects.requireNonNull(traces, "traces");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.schedulerName = Objects.requireNonNull(schedulerName, "schedulerName");
        this.task = Tasks.custom(NAME, DATA_CLASS)
                .onFailure(this::retryLater)
                .onDeadExecution(this::runAgain)
                .execute(this::execute);
    }

    Task<HashMap<String, String>> task() {
        return task;
    }

    StepTraces traces() {
        return traces;
    }

    static TaskInstanceId id(StepKind kind, String ref) {
        return TaskInstanceId.of(NAME, kind.name() + ":" + ref);
    }

    /** The row data of {@code step}. */
    static HashMap<String, String> data(Step step) {
        return data(step, Map.of());
    }

    /** The row data of {@code step} with the trace context {@code trace} (row fields). */
    static HashMap<String, String> data(Step step, Map<String, String> trace) {
        var data = new HashMap<String, String>(trace);
        data.put(FORMAT, Integer.toString(CURRENT_FORMAT));
        data.put(ATTEMPT, Integer.toString(step.attempt()));
        step.data().forEach((key, value) -> data.put(DATA_PREFIX + key, value));
        return data;
    }

    /**
     * The step of a row.
     *
     * @throws IllegalArgumentException the instance id names no known step kind
     */
    static Step step(String instanceId, Map<String, String> data) {
        var colon = instanceId.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not a step instance id (KIND:ref): " + instanceId);
        }
        var kind = StepKind.valueOf(instanceId.substring(0, colon));
        var ref = instanceId.substring(colon + 1);
        var stepData = new HashMap<String, String>();
        if (data != null) {
            data.forEach((key, value) -> {
                if (key != null && value != null && key.startsWith(DATA_PREFIX)) {
                    stepData.put(key.substring(DATA_PREFIX.length()), value);
                }
            });
        }
        return new Step(kind, ref, attempt(data), stepData);
    }

    /** Why this release cannot run a row ({@code format} or {@code kind}); empty when it can. */
    static Optional<String> unreadable(String instanceId, Map<String, String> data) {
        var raw = data == null ? null : data.get(FORMAT);
        if (raw != null) {
            int format;
            try {
                format = Integer.parseInt(raw.strip());
            } catch (NumberFormatException e) {
                return Optional.of("format");
            }
            if (format > CURRENT_FORMAT || format < 1) {
                return Optional.of("format");
            }
        }
        var colon = instanceId.indexOf(':');
        if (colon < 0) {
            return Optional.of("kind");
        }
        var kind = instanceId.substring(0, colon);
        return Arrays.stream(StepKind.values()).anyMatch(k -> k.name().equals(kind)) ? Optional.empty() : Optional.of("kind");
    }

    /** Rows this instance left for another since it started, by reason ({@code format}, {@code kind}). */
    long leftForAnotherInstance(String reason) {
        var count = left.get(reason);
        return count == null ? 0 : count.sum();
    }

    /** The same row data with the attempt counted up (for a run that threw or died). */
    static HashMap<String, String> nextAttempt(Map<String, String> data) {
        var next = data == null ? new HashMap<String, String>() : new HashMap<>(data);
        next.put(ATTEMPT, Integer.toString(attempt(data) + 1));
        return next;
    }

    private static int attempt(Map<String, String> data) {
        var raw = data == null ? null : data.get(ATTEMPT);
        if (raw == null) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(raw));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private CompletionHandler<HashMap<String, String>> execute(TaskInstance<HashMap<String, String>> instance,
                                                               ExecutionContext context) {
        var unreadable = unreadable(instance.getId(), instance.getData());
        if (unreadable.isPresent()) {
            return leave(instance.getId(), unreadable.get(), instance.getData());
        }
        var step = step(instance.getId(), instance.getData());
        var stored = StepTraces.storedIn(instance.getData());
        StepOutcome outcome;
        Map<String, String> trace;
        runningHere.add(instance.getId());
        try (var run = traces.start(step, stored)) {
            log.debug("{} runs, attempt {}", instance.getId(), step.attempt());
            try (var budget = budgets.longJob()) {
                outcome = runner.get().run(step);
            } catch (RuntimeException | Error e) {
                run.failed(e);
                throw e;
            }
            trace = run.fields();
            log.debug("{} ran: {}", instance.getId(), outcome.getClass().getSimpleName());
        } finally {
            runningHere.remove(instance.getId());
        }
        var client = context.getSchedulerClient();
        // the next run of the same step keeps the row's trace (its runs are siblings, however often it polls);
        // a follower continues from this run's span
        var again = stored.isEmpty() ? trace : stored;
        return (complete, operations) -> apply(outcome, again, trace, client, complete, operations);
    }

    /**
     * Applies {@code outcome}: the step's next run carries {@code again}, a follower {@code trace} (the run's
     * trace context).
     */
    private void apply(StepOutcome outcome, Map<String, String> again, Map<String, String> trace,
                       SchedulerClient client, ExecutionComplete complete,
                       ExecutionOperations<HashMap<String, String>> operations) {
        switch (outcome) {
            case StepOutcome.Done done -> operations.remove();
            case StepOutcome.Reschedule later -> operations.reschedule(complete,
                    complete.getTimeDone().plus(later.delay()), data(later.step(), again));
            case StepOutcome.Next next -> follow(next, trace, client, complete, operations);
        }
    }

    /**
     * Hands over to the follower. When it has no row yet, the current row becomes the follower's in one
     * version-guarded update: there is never a moment with neither row, and never one with the current
     * row still picked after its follower exists (a fast follower that hands back to this kind would
     * otherwise find it "running" and be dropped). Otherwise the follower's pending row is replaced
     * (or a running follower left alone) first, and the current row deleted after: a crash in between
     * runs the current step again, which every step tolerates.
     */
    private void follow(StepOutcome.Next next, Map<String, String> trace, SchedulerClient client,
                        ExecutionComplete complete, ExecutionOperations<HashMap<String, String>> operations) {
        var follower = next.step();
        var time = complete.getTimeDone().plus(next.delay());
        if (client.getScheduledExecution(TaskInstanceId.of(NAME, follower.instanceId())).isEmpty()) {
            try {
                operations.removeAndScheduleNew(
                        SchedulableInstance.of(new TaskInstance<>(NAME, follower.instanceId(), data(follower, trace)), time));
                return;
            } catch (RuntimeException e) {
                log.debug("{} could not become {} in place ({}); placing it separately",
                        complete.getExecution().taskInstance.getId(), follower.instanceId(), e.toString());
            }
        }
        var placed = StepPlacement.unbounded(client).place(follower, trace, time);
        if (placed.orElseThrow() == StepPlacement.Placement.RUNNING) {
            log.info("{} is running right now; {} leaves it to finish", follower.instanceId(),
                    complete.getExecution().taskInstance.getId());
        }
        operations.remove();
    }

    /** Puts a row this release cannot read back unchanged, {@link #LEAVE_FOR} later, for an instance that can. */
    private CompletionHandler<HashMap<String, String>> leave(String id, String reason, HashMap<String, String> data) {
        left.computeIfAbsent(reason, r -> new LongAdder()).increment();
        log.warn("{} has a step {} this release does not know (format {}, this release reads up to {}); left for an "
                + "instance that does, due again in {}", id, reason, data == null ? null : data.get(FORMAT),
                CURRENT_FORMAT, LEAVE_FOR);
        return (complete, operations) -> operations.reschedule(complete, complete.getTimeDone().plus(LEAVE_FOR), data);
    }

    private void retryLater(ExecutionComplete complete, ExecutionOperations<HashMap<String, String>> operations) {
        var execution = complete.getExecution();
        if (unreadable(execution.taskInstance.getId(), dataOf(execution.taskInstance)).isPresent()) {
            operations.reschedule(complete, complete.getTimeDone().plus(LEAVE_FOR), storedData(execution.taskInstance));
            return;
        }
        var delay = retry.delayBefore(execution.consecutiveFailures + 1);
        var at = complete.getTimeDone().plus(delay);
        // db-scheduler has logged the failure with its stack trace already
        log.warn("{} failed ({} in a row); running it again at {}", execution.taskInstance.getId(),
                execution.consecutiveFailures + 1, at);
        operations.reschedule(complete, at, nextAttempt(dataOf(execution.taskInstance)));
    }

    private void runAgain(ExecutionComplete complete, ExecutionOperations<HashMap<String, String>> operations) {
        var execution = complete.getExecution();
        var id = execution.taskInstance.getId();
        if (schedulerName.equals(execution.pickedBy) && runningHere.contains(id)) {
            // Found "dead" by the very process running it: its heartbeats lagged (a starved JVM), the run goes on.
            // Running it again beside itself would repeat its calls (an approval twice); the row is left as it is,
            // and the run completes it (its version unchanged).
            log.warn("{} is still running here although its heartbeat lagged since {}; not run a second time",
                    id, execution.lastHeartbeat);
            return;
        }
        if (unreadable(id, dataOf(execution.taskInstance)).isPresent()) {
            // not this release's to count: put back unchanged for an instance that reads it
            operations.reschedule(complete, complete.getTimeDone(), storedData(execution.taskInstance));
            return;
        }
        log.warn("{} was picked by {} whose heartbeats stopped at {}; running it again",
                execution.taskInstance.getId(), execution.pickedBy, execution.lastHeartbeat);
        operations.reschedule(complete, complete.getTimeDone(), nextAttempt(dataOf(execution.taskInstance)));
    }

    private static HashMap<String, String> storedData(TaskInstance<?> instance) {
        return new HashMap<>(dataOf(instance));
    }

    private static Map<String, String> dataOf(TaskInstance<?> instance) {
        return dataOf(instance.getData());
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> dataOf(Object data) {
        return data instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
    }
}
