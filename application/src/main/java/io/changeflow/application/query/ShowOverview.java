package io.changeflow.application.query;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.recovery.FindOverdueRequests.Deadlines;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.Convergence.Deadline;
import io.changeflow.domain.state.Convergence.Owner;
import io.changeflow.domain.state.WorkflowState;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The operations overview: what the service is doing right now, in one answer built from a fixed number of
 * aggregate reads ({@link Activity}, {@link WorkQueue#backlogSummary}) and this instance's breakers
 * ({@link ExternalSystemHealth}); nothing is read per request. Each waiting state is shown with its owner
 * ({@link Convergence}), its longest wait and the earliest deadline among its requests, computed as
 * {@code FindOverdueRequests} computes them.
 */
public final class ShowOverview {

    /** The hours of completions and failures shown, the current one included. */
    public static final int HOURS = 24;
    /** How far back deploy reports count towards their error rate. */
    public static final Duration REPORT_WINDOW = Duration.ofHours(1);
    /** The name of the deploy reports among the {@link Dependency dependencies}. */
    public static final String DEPLOY_REPORTS = "deploy-reports";
    /** Raised with every change of the overview's shape, so a release never answers 304 for the previous one's. */
    static final int FORMAT = 1;

    private static final System.Logger LOG = System.getLogger(ShowOverview.class.getName());

    /**
     * The requests of one non-terminal status that share an owner and a deadline.
     *
     * @param oldestSince  the earliest last state write among them (the longest waiting request)
     * @param nextDeadline the earliest deadline among them; empty when a person owns the next move
     * @param atDeadline   what happens at the deadline, for people
     */
    public record Waiting(BindingStatus status, Owner owner, long count, Instant oldestSince, Duration oldestAge,
                          Optional<Deadline> deadline, Optional<Instant> nextDeadline, String atDeadline) {}

    /**
     * An external system: a called one with its breaker (this instance's view), or the deploy reports this service
     * receives (no breaker; {@code recentCalls} are the reports of the last hour, {@code recentFailures} those not
     * {@code success}).
     */
    public record Dependency(String system, Optional<String> breaker, Optional<Double> errorRatePercent, long recentCalls,
                             long recentFailures, long notPermittedCalls, Optional<Instant> lastSeen) {}

    /**
     * @param hours    exactly {@link #HOURS} hours, oldest first, the current one last (zeros included)
     * @param backlog  empty when the work queue could not be read (the rest is still shown)
     * @param slots    every batch partition of the catalog and every partition with waiting requests or an active batch
     */
    public record Overview(Instant at, Map<BindingStatus, Long> byStatus, List<Waiting> waiting, List<Activity.Hour> hours,
                           List<Dependency> dependencies, Optional<WorkQueue.Backlog> backlog, List<Activity.Slot> slots) {
        public Overview {
            byStatus = Map.copyOf(byStatus);
            waiting = List.copyOf(waiting);
            hours = List.copyOf(hours);
            dependencies = List.copyOf(dependencies);
            Objects.requireNonNull(backlog, "backlog");
            slots = List.copyOf(slots);
        }
    }

    private final Activity activity;
    private final WorkQueue queue;
    private final List<ExternalSystemHealth> systems;
    private final Targets targets;
    private final Convergence table;
    private final Deadlines deadlines;
    private final Clock clock;

    public ShowOverview(Activity activity, WorkQueue queue, List<ExternalSystemHealth> systems, Targets targets,
                        Convergence table, Deadlines deadlines, Clock clock) {
        this.activity = activity;
        this.queue = queue;
        this.systems = List.copyOf(systems);
        this.targets = targets;
        this.table = table;
        this.deadlines = deadlines;
        this.clock = clock;
    }

    /**
     * The overview with the version it was read at: the version is read first, so a write between the two leaves the
     * version older than the content, and the next conditional read answers in full again (never a stale 304).
     */
    public record Shown(Overview overview, String version) {}

    /**
     * The version of what {@link #show} answers now (issue 33, conditional reads): it covers the content, not
     * {@link Overview#at} nor the ages computed from it (a 304 tells the console that only time has passed). Read
     * from {@link Activity#version} (a few index reads, none over all requests), the work queue's backlog (one
     * aggregate of the work queue, which is shown as it is), this instance's breakers (in memory; another instance's
     * overview has another version), the catalog's batch partitions and the current hour of the 24 shown.
     */
    public String version() {
        var now = clock.instant();
        var shown = new StringBuilder(activity.version(now.minus(REPORT_WINDOW)))
                .append('|').append(firstHour(now)).append('|').append(backlog().map(Object::toString).orElse("-"));
        systems.forEach(system -> shown.append('|').append(system.status()));
        targets.all().stream().filter(Target::batchable).map(Target::partition).sorted().forEach(p -> shown.append('|').append(p));
        return FORMAT + "-" + ViewVersion.digest(shown);
    }

    /** {@link #version} then {@link #show}, in that order. */
    public Shown read() {
        var version = version();
        return new Shown(show(), version);
    }

    private static Instant firstHour(Instant now) {
        return now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(HOURS - 1L));
    }

    public Overview show() {
        var now = clock.instant();
        var firstHour = firstHour(now);
        var snapshot = activity.read(firstHour, now.minus(REPORT_WINDOW));
        return new Overview(now, snapshot.byStatus(), waiting(snapshot.waiting(), now), hours(snapshot.hours(), firstHour),
                dependencies(snapshot.deployReports()), backlog(), slots(snapshot.slots()));
    }

    private record Key(BindingStatus status, Owner owner, Optional<Deadline> deadline, String atDeadline) {}

    private List<Waiting> waiting(List<Activity.StateGroup> groups, Instant now) {
        var merged = new LinkedHashMap<Key, Waiting>();
        for (var group : groups) {
            var wait = table.of(WorkflowState.of(group.step(), group.status()));
            if (wait.isEmpty()) {
                continue;
            }
            var key = new Key(group.status(), wait.get().owner(), wait.get().deadline(), wait.get().atDeadline());
            var due = key.deadline().map(d -> group.earliestExpiry()
                    .map(expiry -> deadlines.dueAt(d, group.oldestWrite(), expiry))
                    .orElseGet(() -> deadlines.dueAt(d, group.oldestWrite())));
            var next = new Waiting(key.status(), key.owner(), group.count(), group.oldestWrite(),
                    Duration.between(group.oldestWrite(), now), key.deadline(), due, key.atDeadline());
            merged.merge(key, next, ShowOverview::combine);
        }
        var list = new ArrayList<>(merged.values());
        list.sort(Comparator.comparing(Waiting::status).thenComparing(Waiting::owner));
        return list;
    }

    private static Waiting combine(Waiting a, Waiting b) {
        var oldest = a.oldestSince().isBefore(b.oldestSince()) ? a : b;
        var due = a.nextDeadline().isEmpty() ? b.nextDeadline()
                : b.nextDeadline().isEmpty() ? a.nextDeadline()
                : Optional.of(a.nextDeadline().get().isBefore(b.nextDeadline().get()) ? a.nextDeadline().get() : b.nextDeadline().get());
        return new Waiting(a.status(), a.owner(), a.count() + b.count(), oldest.oldestSince(), oldest.oldestAge(), a.deadline(),
                due, a.atDeadline());
    }

    private static List<Activity.Hour> hours(List<Activity.Hour> counted, Instant firstHour) {
        var byStart = new TreeMap<Instant, Activity.Hour>();
        counted.forEach(h -> byStart.put(h.start(), h));
        var hours = new ArrayList<Activity.Hour>(HOURS);
        for (int i = 0; i < HOURS; i++) {
            var start = firstHour.plus(Duration.ofHours(i));
            hours.add(byStart.getOrDefault(start, new Activity.Hour(start, 0, 0)));
        }
        return hours;
    }

    private List<Dependency> dependencies(Activity.DeployReports reports) {
        var list = new ArrayList<Dependency>();
        for (var system : systems) {
            var s = system.status();
            list.add(new Dependency(s.system(), Optional.of(s.breaker()), s.errorRatePercent(), s.recentCalls(),
                    s.recentFailures(), s.notPermittedCalls(), Optional.empty()));
        }
        var rate = reports.received() == 0 ? Optional.<Double>empty()
                : Optional.of(100.0 * reports.unsuccessful() / reports.received());
        list.add(new Dependency(DEPLOY_REPORTS, Optional.empty(), rate, reports.received(), reports.unsuccessful(), 0,
                reports.latest()));
        return list;
    }

    private Optional<WorkQueue.Backlog> backlog() {
        try {
            return Optional.of(queue.backlogSummary());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "the work queue could not be read for the overview (" + e.getClass().getSimpleName() + ")");
            return Optional.empty();
        }
    }

    private List<Activity.Slot> slots(List<Activity.Slot> stored) {
        var byPartition = new TreeMap<String, Activity.Slot>();
        targets.all().stream().filter(Target::batchable).map(Target::partition)
                .forEach(p -> byPartition.put(p, new Activity.Slot(p, 0, Optional.empty())));
        stored.forEach(slot -> byPartition.put(slot.partition(), slot));
        return new ArrayList<>(byPartition.values());
    }
}
