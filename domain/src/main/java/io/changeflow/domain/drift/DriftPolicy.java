package io.changeflow.domain.drift;

import java.util.Locale;
import java.util.Optional;

/**
 * What drift handling does with a line nobody approved and a line of an ended grant on one target
 * ({@code changeflow.catalog.targets[n].drift}, issue 36). The fail-safe is {@link #REMOVE}: unapproved access is
 * the harmful side, so a missing or garbled setting never leaves such a line on main.
 */
public enum DriftPolicy {

    /** The default: such a line is removed through the normal workflow (merge request, pipeline, bots, deploy). */
    REMOVE,

    /** Such a line is only reported (a drift item); an operator decides. */
    REPORT;

    /** The value as configured: {@code remove}, {@code report}. */
    public String settingName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean removes() {
        return this == REMOVE;
    }

    /** The policy {@code raw} names (case and surrounding whitespace ignored); empty for a missing, blank or unknown value. */
    public static Optional<DriftPolicy> named(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var text = raw.strip().toLowerCase(Locale.ROOT);
        for (var value : values()) {
            if (value.settingName().equals(text)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The policy {@code raw} names, or {@link #REMOVE} when it names none (missing, blank, garbled). */
    public static DriftPolicy parse(String raw) {
        return named(raw).orElse(REMOVE);
    }
}
