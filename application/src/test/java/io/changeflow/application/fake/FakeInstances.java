package io.changeflow.application.fake;

import io.changeflow.application.port.out.Instances;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** {@link Instances} in memory; the clock stands in for the database clock. */
public final class FakeInstances implements Instances {

    private final Clock clock;
    private final Map<String, Instance> rows = new TreeMap<>();

    public FakeInstances(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void started(Identity instance) {
        var now = clock.instant();
        rows.put(instance.name(), new Instance(instance, now, now, Optional.empty()));
    }

    @Override
    public synchronized boolean seen(String name) {
        var row = rows.get(name);
        if (row == null) {
            return false;
        }
        rows.put(name, new Instance(row.identity(), row.startedAt(), clock.instant(), row.stoppedAt()));
        return true;
    }

    @Override
    public synchronized void stopped(String name) {
        var row = rows.get(name);
        if (row != null) {
            rows.put(name, new Instance(row.identity(), row.startedAt(), clock.instant(), Optional.of(clock.instant())));
        }
    }

    @Override
    public synchronized Roster roster() {
        var instances = new ArrayList<>(rows.values());
        instances.sort(Comparator.comparing(instance -> instance.identity().name()));
        return new Roster(clock.instant(), instances);
    }

    @Override
    public synchronized int forgetUnseenFor(Duration age) {
        Instant before = clock.instant().minus(age);
        var forgotten = rows.values().stream().filter(row -> row.lastSeen().isBefore(before)).map(r -> r.identity().name())
                .toList();
        forgotten.forEach(rows::remove);
        return forgotten.size();
    }

    /** Deletes a row, as another instance's forgetting would. */
    public synchronized void forget(String name) {
        rows.remove(name);
    }
}
