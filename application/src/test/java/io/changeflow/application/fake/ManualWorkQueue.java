package io.changeflow.application.fake;

import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StepOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable work queue run by hand, deterministically: steps wait until the {@link SettableClock}
 * reaches their time; {@link #runNext()} moves the clock to the earliest due step and runs it through
 * {@link RunDueStep}, applying the outcome the way the scheduler adapter does (done: delete;
 * reschedule: update in place; next: schedule the follower, then delete). A step that throws stays
 * queued and is retried five minutes later (the scheduler's failure policy); the exception is
 * rethrown to the test. The backlog bound refuses new work only, never continuations.
 */
public final class ManualWorkQueue implements WorkQueue {

    /** A step waiting to run. */
    public record Pending(Step step, Instant due, long sequence) {}

    static final Duration RETRY_AFTER_FAILURE = Duration.ofMinutes(5);

    private final SettableClock clock;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final List<Step> ran = new ArrayList<>();
    private RunDueStep runner;
    private int capacity = Integer.MAX_VALUE;
    private long sequence;
    private String running;
    /** The step running now, and the number of its run (a run another instance took over no longer matches). */
    private Step runningStep;
    private long runs;
    private long runningRun;
    private RuntimeException backlogFailure;

    public ManualWorkQueue(SettableClock clock) {
        this.clock = clock;
    }

    public void attach(RunDueStep runner) {
        this.runner = runner;
    }

    /** How many steps may wait before {@link #schedule} refuses new work. */
    public synchronized void capacity(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public synchronized boolean schedule(Step step, Duration delay) {
        var id = step.instanceId();
        if (id.equals(running)) {
            return true;
        }
        if (!pending.containsKey(id) && pending.size() >= capacity) {
            return false;
        }
        put(step, delay);
        return true;
    }

    @Override
    public synchronized boolean isScheduled(StepKind kind, String ref) {
        var id = kind.name() + ":" + ref;
        return pending.containsKey(id) || id.equals(running);
    }

    @Override
    public synchronized Optional<Scheduled> scheduled(StepKind kind, String ref) {
        return Optional.ofNullable(pending.get(kind.name() + ":" + ref)).map(p -> new Scheduled(p.step(), p.due()));
    }

    @Override
    public synchronized boolean wake(StepKind kind, String ref) {
        var id = kind.name() + ":" + ref;
        var waiting = pending.get(id);
        if (waiting == null || !waiting.due().isAfter(clock.instant())) {
            return false;
        }
        pending.put(id, new Pending(waiting.step(), clock.instant(), waiting.sequence()));
        return true;
    }

    /** From now on {@link #backlog} and {@link #backlogSummary} throw {@code failure}: the queue cannot be read. */
    public synchronized void failBacklogReads(RuntimeException failure) {
        this.backlogFailure = failure;
    }

    @Override
    public synchronized int backlog() {
        throwIfBacklogUnreadable();
        return pending.size();
    }

    @Override
    public synchronized Backlog backlogSummary() {
        throwIfBacklogUnreadable();
        var now = clock.instant();
        var due = pending.values().stream().map(Pending::due).filter(d -> !d.isAfter(now)).sorted().toList();
        return new Backlog(pending.size(), due.size(), running == null ? 0 : 1, 0, capacity,
                due.isEmpty() ? Optional.empty() : Optional.of(due.getFirst()));
    }

    private void throwIfBacklogUnreadable() {
        if (backlogFailure != null) {
            throw backlogFailure;
        }
    }

    /** Runs the earliest step (moving the clock forward to its time if needed); false when none waits. */
    public boolean runNext() {
        Pending next;
        synchronized (this) {
            var first = pending.values().stream()
                    .min(Comparator.comparing(Pending::due).thenComparingLong(Pending::sequence));
            if (first.isEmpty()) {
                return false;
            }
            next = first.get();
        }
        run(next);
        return true;
    }

    /**
     * Runs one of the steps due now, the {@code pick}-th (modulo their number) in the order they were queued, without
     * moving the clock: a scheduler with several workers may take due steps in any order. False when none is due.
     */
    public boolean runDue(int pick) {
        Pending chosen;
        synchronized (this) {
            var due = pending.values().stream().filter(p -> !p.due().isAfter(clock.instant()))
                    .sorted(Comparator.comparingLong(Pending::sequence)).toList();
            if (due.isEmpty()) {
                return false;
            }
            chosen = due.get(Math.floorMod(pick, due.size()));
        }
        run(chosen);
        return true;
    }

    private void run(Pending next) {
        long run;
        synchronized (this) {
            pending.remove(next.step().instanceId());
            if (next.due().isAfter(clock.instant())) {
                clock.set(next.due());
            }
            running = next.step().instanceId();
            runningStep = next.step();
            run = ++runs;
            runningRun = run;
            ran.add(next.step());
        }
        StepOutcome outcome;
        try {
            outcome = runner.run(next.step());
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                if (runningRun == run) {
                    running = null;
                    put(next.step().nextAttempt(), RETRY_AFTER_FAILURE);
                }
            }
            throw e;
        }
        synchronized (this) {
            if (runningRun != run) {
                // taken over while it hung: the row's version moved on, so the adapter's guarded update or delete
                // changes nothing; only a follower is placed, apart, before that delete (WorkflowStepTask#follow)
                if (outcome instanceof StepOutcome.Next then && !then.step().instanceId().equals(running)) {
                    put(then.step(), then.delay());
                }
                return;
            }
            running = null;
            switch (outcome) {
                case StepOutcome.Done done -> { }
                case StepOutcome.Reschedule again -> put(again.step(), again.delay());
                case StepOutcome.Next then -> put(then.step(), then.delay());
            }
        }
    }

    /**
     * The instance running the current step hangs (its heartbeats stop too) past the dead-execution timeout, and another
     * instance takes the step over, as db-scheduler's dead-execution detection does: the step is queued again
     * ({@code after} from now, its next attempt) and is no longer running; when the hung run ends, its outcome changes
     * nothing but a follower it hands over to. Empty when no step is running.
     */
    public synchronized Optional<Step> takeOver(Duration after) {
        if (running == null) {
            return Optional.empty();
        }
        var step = runningStep;
        running = null;
        runningRun = 0;
        put(step.nextAttempt(), after);
        return Optional.of(step);
    }

    /** Runs the pending step {@code kind}:{@code ref} (moving the clock to its time if needed); false when it is not queued. */
    public boolean run(StepKind kind, String ref) {
        Pending chosen;
        synchronized (this) {
            chosen = pending.get(kind.name() + ":" + ref);
            if (chosen == null) {
                return false;
            }
        }
        run(chosen);
        return true;
    }

    /** Runs steps until none waits; fails the test if that takes more than {@code maxRuns} runs. */
    public int runUntilIdle(int maxRuns) {
        var runs = 0;
        while (runNext()) {
            if (++runs > maxRuns) {
                throw new AssertionError("the work queue did not become idle within " + maxRuns + " runs: " + pending());
            }
        }
        return runs;
    }

    public int runUntilIdle() {
        return runUntilIdle(500);
    }

    /** Runs only the steps due now (without moving the clock). */
    public int runDue() {
        var runs = 0;
        while (true) {
            synchronized (this) {
                var due = pending.values().stream().anyMatch(p -> !p.due().isAfter(clock.instant()));
                if (!due) {
                    return runs;
                }
            }
            runNext();
            runs++;
        }
    }

    public synchronized List<Pending> pending() {
        return List.copyOf(pending.values());
    }

    public synchronized Optional<Pending> pending(StepKind kind, String ref) {
        return Optional.ofNullable(pending.get(kind.name() + ":" + ref));
    }

    /** Every step run so far, in order. */
    public synchronized List<Step> ran() {
        return List.copyOf(ran);
    }

    /** Drops a pending step, as if its task was lost (e.g. deleted by a crash before it was persisted). */
    public synchronized void lose(StepKind kind, String ref) {
        pending.remove(kind.name() + ":" + ref);
    }

    private void put(Step step, Duration delay) {
        pending.put(step.instanceId(), new Pending(step, clock.instant().plus(delay), sequence++));
    }
}
