package io.changeflow.adapter.web.metrics;

import io.changeflow.application.drift.CountDrift;
import io.changeflow.domain.drift.DriftKind;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@value #ITEMS} {@code {kind}}: drift items nobody decided about yet (open, or their removal under way), per kind
 * (every {@link DriftKind}, so the series never come and go), cluster-wide (alert on {@code max}). Read from the
 * database at most once per {@link #REFRESH}; NaN while it cannot be read. No subject, line or person is a tag.
 */
public final class DriftGauges implements MeterBinder {

    public static final String ITEMS = "changeflow.drift.items";
    public static final Duration REFRESH = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(DriftGauges.class);

    /** One look at the database; {@code counts} null when it failed. */
    private record Snapshot(Map<DriftKind, Long> counts, long at) {}

    private final CountDrift count;
    private final LongSupplier nanoTime;
    private volatile Snapshot last;

    public DriftGauges(CountDrift count, LongSupplier nanoTime) {
        this.count = count;
        this.nanoTime = nanoTime;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (var kind : DriftKind.values()) {
            Gauge.builder(ITEMS, this, g -> g.value(kind))
                    .description("Drift items between the grant files on main and the records that nobody decided about yet")
                    .tag("kind", kind.name())
                    .register(registry);
        }
    }

    private double value(DriftKind kind) {
        var snapshot = snapshot();
        return snapshot.counts() == null ? Double.NaN : snapshot.counts().getOrDefault(kind, 0L);
    }

    private Snapshot snapshot() {
        var now = nanoTime.getAsLong();
        var snapshot = last;
        if (snapshot != null && now - snapshot.at() < REFRESH.toNanos()) {
            return snapshot;
        }
        synchronized (this) {
            snapshot = last;
            if (snapshot != null && now - snapshot.at() < REFRESH.toNanos()) {
                return snapshot;
            }
            try {
                snapshot = new Snapshot(count.unhandled(), now);
            } catch (RuntimeException e) {
                log.warn("cannot read the drift items for the drift gauges", e);
                snapshot = new Snapshot(null, now);
            }
            last = snapshot;
            return snapshot;
        }
    }
}
