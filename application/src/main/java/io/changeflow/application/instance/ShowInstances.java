package io.changeflow.application.instance;

import io.changeflow.application.port.out.Instances;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The instances of the service with the version and commit each runs (issue 31): what an operator checks between the
 * steps of a rolling upgrade (docs/operations.md "Upgrading"). Running ones first, newest start first.
 */
public final class ShowInstances {

    /** Where an instance stands, as read from its row. */
    public enum State {
        /** Its heartbeat is fresh: it serves and takes steps. */
        RUNNING,
        /** It stopped gracefully; its row stays until it is forgotten. */
        STOPPED,
        /**
         * No heartbeat for longer than the stale bound and no graceful stop: it died, hangs or cannot reach the
         * database. Its running steps are taken over after the scheduler's dead-execution timeout.
         */
        SILENT
    }

    /** One instance and where it stands, {@code sinceSeen} on the database clock. */
    public record InstanceView(Instances.Instance instance, State state, Duration sinceSeen) {}

    /**
     * @param versions the distinct versions of the running instances; more than one during a rolling upgrade
     */
    public record Cluster(Instant at, List<InstanceView> instances, List<String> versions) {

        /** More than one version running. */
        public boolean mixed() {
            return versions.size() > 1;
        }
    }

    private final Instances instances;
    private final Duration staleAfter;

    /** @param staleAfter how long without a heartbeat makes a running instance {@link State#SILENT} */
    public ShowInstances(Instances instances, Duration staleAfter) {
        this.instances = Objects.requireNonNull(instances, "instances");
        this.staleAfter = Objects.requireNonNull(staleAfter, "staleAfter");
    }

    public Cluster show() {
        var roster = instances.roster();
        var views = roster.instances().stream()
                .map(instance -> view(instance, roster.at()))
                .sorted(Comparator.comparing(InstanceView::state)
                        .thenComparing(view -> view.instance().startedAt(), Comparator.reverseOrder())
                        .thenComparing(view -> view.instance().identity().name()))
                .toList();
        var versions = new TreeSet<String>();
        views.stream().filter(view -> view.state() == State.RUNNING)
                .forEach(view -> versions.add(view.instance().identity().version()));
        return new Cluster(roster.at(), views, List.copyOf(versions));
    }

    private InstanceView view(Instances.Instance instance, Instant at) {
        var sinceSeen = Duration.between(instance.lastSeen(), at);
        if (sinceSeen.isNegative()) {
            sinceSeen = Duration.ZERO;
        }
        State state;
        if (instance.stoppedAt().isPresent()) {
            state = State.STOPPED;
        } else if (sinceSeen.compareTo(staleAfter) > 0) {
            state = State.SILENT;
        } else {
            state = State.RUNNING;
        }
        return new InstanceView(instance, state, sinceSeen);
    }
}
