package io.changeflow.adapter.web.metrics;

import io.changeflow.application.query.ShowStats;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.domain.state.BindingStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Where the requests stand, cluster-wide (every instance reports the same numbers: alert on {@code max}):
 * <ul>
 *   <li>{@value #IN_STATUS} {@code {status}}: requests per external status (every status of
 *       {@link BindingStatus}, so the series never come and go);</li>
 *   <li>{@value #OVERDUE}: requests past the deadline of whoever owns their next move, among the
 *       {@value #OVERDUE_LIMIT} oldest non-terminal ones ({@link FindOverdueRequests}, what {@code GET /ops/overdue}
 *       shows);</li>
 *   <li>{@value #OLDEST_OVERDUE} (seconds): how long the longest overdue of them is past its deadline, 0 when
 *       none is.</li>
 * </ul>
 * Read from the database at most once per {@link #REFRESH} whatever the scrape rate; NaN while the database
 * cannot be read (the scrape itself still answers). No request, subject or person is ever a tag.
 */
public final class WorkflowGauges implements MeterBinder {

    public static final String IN_STATUS = "changeflow.requests.in.status";
    public static final String OVERDUE = "changeflow.requests.overdue";
    public static final String OLDEST_OVERDUE = "changeflow.requests.overdue.oldest";
    static final int OVERDUE_LIMIT = FindOverdueRequests.DEFAULT_LIMIT;
    public static final Duration REFRESH = Duration.ofSeconds(30);

    /** One look at the database. */
    private record Snapshot(Map<BindingStatus, Long> byStatus, int overdue, long oldestOverdueSeconds) {}

    private final PeriodicRead<Snapshot> snapshot;

    public WorkflowGauges(ShowStats stats, FindOverdueRequests overdue, LongSupplier nanoTime) {
        this.snapshot = new PeriodicRead<>("the requests for the workflow gauges", () -> {
            var counts = new EnumMap<BindingStatus, Long>(stats.show(new ShowStats.Command()).byStatus());
            var found = overdue.find(OVERDUE_LIMIT);
            var oldest = found.overdue().isEmpty() ? 0 : found.overdue().getFirst().overdueBy().toSeconds();
            return new Snapshot(counts, found.overdue().size(), oldest);
        }, REFRESH, nanoTime);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (var status : BindingStatus.values()) {
            Gauge.builder(IN_STATUS, this, g -> g.value(s -> s.byStatus().getOrDefault(status, 0L)))
                    .description("Change requests per external status, cluster-wide")
                    .tag("status", status.name())
                    .strongReference(true)
                    .register(registry);
        }
        Gauge.builder(OVERDUE, this, g -> g.value(Snapshot::overdue))
                .description("Change requests past the deadline of whoever owns their next move, cluster-wide")
                .strongReference(true)
                .register(registry);
        Gauge.builder(OLDEST_OVERDUE, this, g -> g.value(Snapshot::oldestOverdueSeconds))
                .description("How long the longest overdue change request is past its deadline, 0 when none is")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
    }

    private double value(ToDoubleFunction<Snapshot> of) {
        return snapshot.get().map(of::applyAsDouble).orElse(Double.NaN);
    }
}
