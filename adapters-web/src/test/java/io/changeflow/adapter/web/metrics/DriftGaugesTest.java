package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.drift.CountDrift;
import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DriftGaugesTest {

    private static final TargetKey DB = TargetKey.of("db-prod-readonly");
    private static final Instant NOW = Instant.parse("2026-12-07T03:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeDrifts drifts = new FakeDrifts();
    private final AtomicLong nanos = new AtomicLong();

    private static Drifts.Sighting line(DriftKind kind, String subject) {
        return new Drifts.Sighting(new Finding(kind, Optional.of(SubjectId.of(subject)), subject + " until=never op=x",
                Optional.empty(), "why"), Evidence.NONE);
    }

    private double gauge(DriftKind kind) {
        return registry.get(DriftGauges.ITEMS).tags("kind", kind.name()).gauge().value();
    }

    @Test
    void unhandledItemsPerKindAreGaugesOfEveryKindReadOncePerRefresh() {
        new DriftGauges(new CountDrift(drifts), nanos::get).bindTo(registry);
        drifts.record(DB, List.of(line(DriftKind.UNAPPROVED_LINE, "eve"), line(DriftKind.UNAPPROVED_LINE, "mallory"),
                line(DriftKind.MISSING_LINE, "alice")), "c1", NOW);

        assertThat(registry.get(DriftGauges.ITEMS).gauges()).hasSize(DriftKind.values().length);
        assertThat(gauge(DriftKind.UNAPPROVED_LINE)).isEqualTo(2);
        assertThat(gauge(DriftKind.MISSING_LINE)).isEqualTo(1);
        assertThat(gauge(DriftKind.EDITED_LINE)).isZero();

        var eve = drifts.list(Drifts.Query.in(DriftStatus.ACTIVE, 10)).stream()
                .filter(i -> i.subject().equals(Optional.of(SubjectId.of("eve")))).findFirst().orElseThrow();
        drifts.move(eve, DriftStatus.ACKNOWLEDGED, "otto", "test account", NOW, Optional.empty());
        assertThat(gauge(DriftKind.UNAPPROVED_LINE)).as("within the refresh period").isEqualTo(2);

        nanos.addAndGet(DriftGauges.REFRESH.toNanos());
        assertThat(gauge(DriftKind.UNAPPROVED_LINE)).as("an acknowledged item is handled").isEqualTo(1);
        assertThat(registry.get(DriftGauges.ITEMS).gauge().getId().getDescription()).isNotBlank();
    }
}
