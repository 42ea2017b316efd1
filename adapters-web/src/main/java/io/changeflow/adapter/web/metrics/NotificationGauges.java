package io.changeflow.adapter.web.metrics;

import io.changeflow.application.notify.CountUnsentNotifications;
import io.changeflow.application.port.out.NotificationOutbox.State;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@value #UNSENT} {@code {state}}: notifications not sent, per state ({@code PENDING}: never tried and failed,
 * {@code RETRYING}: failed and tried again with backoff, {@code GAVE_UP}: attempts used up, never sent), every state
 * present so the series never come and go, cluster-wide (alert on {@code max}; docs/operations.md says what to do when
 * they grow). Read from the database at most once per {@link #REFRESH}; NaN while it cannot be read. No recipient is a
 * tag.
 */
public final class NotificationGauges implements MeterBinder {

    public static final String UNSENT = "changeflow.notifications.unsent";
    public static final Duration REFRESH = Duration.ofSeconds(30);
    static final List<State> STATES = List.of(State.PENDING, State.RETRYING, State.GAVE_UP);

    private final PeriodicRead<Map<State, Long>> counts;

    public NotificationGauges(CountUnsentNotifications count, LongSupplier nanoTime) {
        this.counts = new PeriodicRead<>("the outbox for the notification gauges", count::unsent, REFRESH, nanoTime);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (var state : STATES) {
            Gauge.builder(UNSENT, this, g -> g.value(state))
                    .description("Notifications not sent yet (PENDING, RETRYING) or given up (GAVE_UP), cluster-wide")
                    .tag("state", state.name())
                    // the registry keeps the binder: a gauge never reads NaN because its owner was collected
                    .strongReference(true)
                    .register(registry);
        }
    }

    private double value(State state) {
        return counts.get().map(c -> (double) c.getOrDefault(state, 0L)).orElse(Double.NaN);
    }
}
