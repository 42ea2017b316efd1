package io.changeflow.adapter.web.metrics;

import io.changeflow.application.drift.CountDrift;
import io.changeflow.domain.drift.DriftKind;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@value #ITEMS} {@code {kind}}: drift items nobody decided about yet (open, or their removal under way), per kind
 * (every {@link DriftKind}, so the series never come and go), cluster-wide (alert on {@code max}). Read from the
 * database at most once per {@link #REFRESH}; NaN while it cannot be read. No subject, line or person is a tag.
 */
public final class DriftGauges implements MeterBinder {

    public static final String ITEMS = "changeflow.drift.items";
    public static final Duration REFRESH = Duration.ofSeconds(30);

    private final PeriodicRead<Map<DriftKind, Long>> counts;

    public DriftGauges(CountDrift count, LongSupplier nanoTime) {
        this.counts = new PeriodicRead<>("the drift items for the drift gauges", count::unhandled, REFRESH, nanoTime);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (var kind : DriftKind.values()) {
            Gauge.builder(ITEMS, this, g -> g.value(kind))
                    .description("Drift items between the grant files on main and the records that nobody decided about yet")
                    .tag("kind", kind.name())
                    // the registry keeps the binder: a gauge never reads NaN because its owner was collected
                    .strongReference(true)
                    .register(registry);
        }
    }

    private double value(DriftKind kind) {
        return counts.get().map(c -> (double) c.getOrDefault(kind, 0L)).orElse(Double.NaN);
    }
}
