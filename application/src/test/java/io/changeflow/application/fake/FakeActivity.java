package io.changeflow.application.fake;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Activity} over the fake operations: counts and waiting groups from the stored requests; hours, deploy
 * reports and batch slots are whatever a test sets (the real figures are proven on the database).
 */
public final class FakeActivity implements Activity {

    private final Operations operations;
    private List<Hour> hours = List.of();
    private DeployReports reports = new DeployReports(0, 0, Optional.empty());
    private List<Slot> slots = List.of();
    private Instant lastHoursSince;
    private int reads;

    public FakeActivity(Operations operations) {
        this.operations = operations;
    }

    public synchronized FakeActivity hours(List<Hour> hours) {
        this.hours = List.copyOf(hours);
        return this;
    }

    public synchronized FakeActivity deployReports(DeployReports reports) {
        this.reports = reports;
        return this;
    }

    public synchronized FakeActivity slots(List<Slot> slots) {
        this.slots = List.copyOf(slots);
        return this;
    }

    /** The first hour the last read asked for. */
    public synchronized Instant lastHoursSince() {
        return lastHoursSince;
    }

    /** How many times {@link #read} was called (the version does not read). */
    public synchronized int reads() {
        return reads;
    }

    @Override
    public synchronized Snapshot read(Instant hoursSince, Instant reportsSince) {
        lastHoursSince = hoursSince;
        reads++;
        return snapshot(hoursSince, reportsSince);
    }

    private Snapshot snapshot(Instant hoursSince, Instant reportsSince) {
        record Key(BindingStatus status, StepStatus step) {}
        var groups = new LinkedHashMap<Key, StateGroup>();
        var open = new ArrayList<>(operations.stuck(Set.of(), Duration.ZERO, Integer.MAX_VALUE));
        open.sort(Comparator.comparing(o -> o.updatedAt()));
        for (var op : open) {
            var status = op.binding().orElseThrow();
            groups.merge(new Key(status, op.step()),
                    new StateGroup(status, op.step(), 1, op.updatedAt(), op.expiresAt()),
                    (a, b) -> new StateGroup(a.status(), a.step(), a.count() + 1, a.oldestWrite(),
                            a.earliestExpiry().isPresent() ? a.earliestExpiry() : b.earliestExpiry()));
        }
        var inRange = hours.stream().filter(h -> !h.start().isBefore(hoursSince)).toList();
        return new Snapshot(operations.countByStatus(), List.copyOf(groups.values()), inRange, reports, slots);
    }

    /** The snapshot itself as its version (the real, cheaper one is proven on the database). */
    @Override
    public synchronized String version(Instant reportsSince) {
        return snapshot(Instant.EPOCH, reportsSince).toString();
    }
}
