package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.Convergence.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The convergence promise checked against the stored requests: the non-terminal requests past the deadline of their
 * owner ({@link Convergence}) without a step scheduled, the <em>overdue</em> ones. States a person owns are never
 * overdue. What overdue means and who reads it: docs/workflow.md, "Convergence".
 */
public final class FindOverdueRequests {

    /** The configured duration of each deadline; a missing one is its {@link #DEFAULTS default}. */
    public record Deadlines(Map<Deadline, Duration> durations) {

        /** The documented defaults (docs/configuration.md). */
        public static final Map<Deadline, Duration> DEFAULTS = Map.of(
                Deadline.STEP_SILENCE, Duration.ofHours(2),
                Deadline.APPROVAL, Duration.ofDays(7),
                Deadline.PIPELINE_PENDING, Duration.ofHours(24),
                Deadline.DEPLOY, Duration.ofHours(2),
                Deadline.TRANSIENT, Duration.ofHours(1));

        public Deadlines {
            var all = new EnumMap<Deadline, Duration>(Deadline.class);
            all.putAll(DEFAULTS);
            durations.forEach((deadline, duration) -> {
                if (duration != null && duration.isPositive()) {
                    all.put(deadline, duration);
                }
            });
            durations = Map.copyOf(all);
        }

        public static Deadlines defaults() {
            return new Deadlines(Map.of());
        }

        public Duration of(Deadline deadline) {
            return durations.get(deadline);
        }

        /**
         * When {@code deadline} passes for a request last written at {@code lastWrite}: that write plus the
         * deadline's duration.
         */
        public Instant dueAt(Deadline deadline, Instant lastWrite) {
            return lastWrite.plus(of(deadline));
        }

        /**
         * {@link #dueAt(Deadline, Instant)} for a request that expires at {@code expiresAt}: a wait on the approver
         * ends at the request's own expiry when that is sooner.
         */
        public Instant dueAt(Deadline deadline, Instant lastWrite, Instant expiresAt) {
            var due = dueAt(deadline, lastWrite);
            return deadline == Deadline.APPROVAL && expiresAt.isBefore(due) ? expiresAt : due;
        }
    }

    /**
     * One request past its deadline.
     *
     * @param owner who was to make the next move (a request with a step scheduled is never overdue)
     * @param dueAt when its deadline passed
     */
    public record Overdue(Operation operation, Convergence.Wait owner, Deadline deadline, Instant dueAt,
                          Duration overdueBy) {}

    /**
     * @param examined non-terminal requests looked at (at most the limit)
     * @param overdue  the overdue ones, longest overdue first
     */
    public record Result(int examined, List<Overdue> overdue) {}

    public static final int DEFAULT_LIMIT = 1_000;

    private final Operations operations;
    private final WorkQueue queue;
    private final Convergence table;
    private final Deadlines deadlines;
    private final Clock clock;

    public FindOverdueRequests(Operations operations, WorkQueue queue, Convergence table, Deadlines deadlines, Clock clock) {
        this.operations = operations;
        this.queue = queue;
        this.table = table;
        this.deadlines = deadlines;
        this.clock = clock;
    }

    /** Looks at up to {@code limit} non-terminal requests, oldest write first. */
    public Result find(int limit) {
        var now = clock.instant();
        var candidates = operations.stuck(Set.of(), Duration.ZERO, Math.max(1, limit));
        var overdue = new ArrayList<Overdue>();
        for (var op : candidates) {
            var wait = table.of(op.state());
            if (wait.isEmpty() || wait.get().deadline().isEmpty()) {
                continue;
            }
            var deadline = wait.get().deadline().get();
            var dueAt = op.expiresAt().map(expiry -> deadlines.dueAt(deadline, op.updatedAt(), expiry))
                    .orElseGet(() -> deadlines.dueAt(deadline, op.updatedAt()));
            if (!now.isAfter(dueAt) || scheduled(op)) {
                continue;
            }
            overdue.add(new Overdue(op, wait.get(), deadline, dueAt, Duration.between(dueAt, now)));
        }
        overdue.sort(Comparator.comparing(Overdue::overdueBy).reversed());
        return new Result(candidates.size(), List.copyOf(overdue));
    }

    private boolean scheduled(Operation op) {
        Optional<WorkQueue.StepKind> kind = StepToResume.of(op);
        return kind.isPresent() && kind.get() != WorkQueue.StepKind.BATCH && queue.isScheduled(kind.get(), op.id().value());
    }
}
