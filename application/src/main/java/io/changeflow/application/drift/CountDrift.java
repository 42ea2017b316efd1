package io.changeflow.application.drift;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftKind;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many drift items nobody decided about yet ({@link io.changeflow.domain.drift.DriftStatus#UNHANDLED}), per kind,
 * every kind present (0 when none): what the drift gauge and its alert read (issue 36). One aggregate query.
 */
public final class CountDrift {

    private final Drifts drifts;

    public CountDrift(Drifts drifts) {
        this.drifts = drifts;
    }

    public Map<DriftKind, Long> unhandled() {
        var counts = new EnumMap<DriftKind, Long>(DriftKind.class);
        for (var kind : DriftKind.values()) {
            counts.put(kind, 0L);
        }
        counts.putAll(drifts.countUnhandled());
        return counts;
    }
}
