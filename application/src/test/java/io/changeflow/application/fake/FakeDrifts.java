package io.changeflow.application.fake;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.TargetKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link Drifts} in memory, with the same contract as the jOOQ adapter ({@code DriftsContract}). */
public final class FakeDrifts implements Drifts {

    private final Map<TargetKey, Instant> baselines = new HashMap<>();
    private final Map<Long, DriftItem> items = new LinkedHashMap<>();
    private long nextId = 1;
    /** How many times {@link #record} was called (one transaction each). */
    public int recordCalls;
    /** A planted defect (the simulation's): {@link #record} keeps nothing, as if every sighting were lost. */
    private boolean losesSightings;

    /** From now on {@link #record} keeps nothing (a defect planted to show the simulation finds it). */
    public synchronized void loseSightings() {
        losesSightings = true;
    }

    @Override
    public synchronized Optional<Instant> baselineOf(TargetKey target) {
        return Optional.ofNullable(baselines.get(target));
    }

    @Override
    public synchronized void markBaseline(TargetKey target, String commitSha, Instant at) {
        baselines.putIfAbsent(target, at);
    }

    @Override
    public synchronized List<DriftItem> activeOn(TargetKey target) {
        return items.values().stream().filter(i -> i.target().equals(target) && DriftStatus.ACTIVE.contains(i.status()))
                .toList();
    }

    @Override
    public synchronized List<Long> record(TargetKey target, Collection<Sighting> sightings, String commitSeen,
                                          Instant seenAt) {
        if (sightings.isEmpty() || losesSightings) {
            return List.of();
        }
        recordCalls++;
        var fresh = new ArrayList<Long>();
        for (var sighting : sightings) {
            var f = sighting.finding();
            var known = items.values().stream().filter(i -> i.target().equals(target) && i.kind() == f.kind()
                    && i.fingerprint().equals(f.fingerprint())).findFirst();
            var commit = Optional.of(commitSeen);
            if (known.isEmpty()) {
                var id = nextId++;
                items.put(id, new DriftItem(id, 0, target, f.kind(), f.subject(), f.line(), f.operation(), f.note(),
                        sighting.evidence(), commit, seenAt, seenAt, DriftStatus.OPEN, "system", "Found on main.", seenAt,
                        Optional.empty()));
                fresh.add(id);
            } else if (known.get().status() == DriftStatus.RESOLVED) {
                var i = known.get();
                items.put(i.id(), new DriftItem(i.id(), i.version() + 1, target, i.kind(), i.subject(), i.line(),
                        f.operation(), f.note(), sighting.evidence(), commit, seenAt, seenAt, DriftStatus.OPEN, "system",
                        "Seen on main again.", seenAt, Optional.empty()));
                fresh.add(i.id());
            } else {
                var i = known.get();
                items.put(i.id(), new DriftItem(i.id(), i.version(), target, i.kind(), i.subject(), i.line(),
                        i.operation(), i.note(), i.evidence(), commit, i.firstSeen(), seenAt, i.status(),
                        i.statusActor(), i.statusNote(), i.statusAt(), i.removal()));
            }
        }
        return fresh;
    }

    @Override
    public synchronized Optional<DriftItem> move(DriftItem read, DriftStatus to, String actor, String note, Instant at,
                                                 Optional<OperationId> removal) {
        var now = items.get(read.id());
        if (now == null || now.status() != read.status() || now.version() != read.version() || !read.status().allows(to)) {
            return Optional.empty();
        }
        var moved = new DriftItem(now.id(), now.version() + 1, now.target(), now.kind(), now.subject(), now.line(),
                now.operation(), now.note(), now.evidence(), now.commitSeen(), now.firstSeen(), now.lastSeen(), to,
                actor, note, at, removal.or(() -> now.status() == DriftStatus.ADOPTED ? Optional.empty() : now.removal()));
        items.put(now.id(), moved);
        return Optional.of(moved);
    }

    @Override
    public synchronized Optional<DriftItem> find(long id) {
        return Optional.ofNullable(items.get(id));
    }

    @Override
    public synchronized List<DriftItem> list(Query query) {
        if (query.limit() < 1) {
            return List.of();
        }
        return items.values().stream()
                .filter(i -> query.statuses().contains(i.status()))
                .filter(i -> query.target().map(i.target()::equals).orElse(true))
                .filter(i -> query.subject().map(s -> i.subject().equals(Optional.of(s))).orElse(true))
                .filter(i -> query.kind().map(k -> i.kind() == k).orElse(true))
                .sorted(Comparator.comparing(DriftItem::lastSeen).thenComparing(DriftItem::id).reversed())
                .limit(query.limit())
                .toList();
    }

    @Override
    public synchronized Map<DriftKind, Long> countUnhandled() {
        var counts = new EnumMap<DriftKind, Long>(DriftKind.class);
        items.values().stream().filter(i -> DriftStatus.UNHANDLED.contains(i.status()))
                .forEach(i -> counts.merge(i.kind(), 1L, Long::sum));
        return counts;
    }
}
