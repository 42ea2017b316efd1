package io.changeflow.domain.config;

import java.util.OptionalInt;

/**
 * How many submissions per window one identity may make. Misconfiguration stops limiting rather
 * than blocking everyone: missing means the endpoint's default, a non-positive or unparsable value
 * means no limiting.
 */
public final class RateLimitSetting {

    private RateLimitSetting() {
    }

    /** The limit in effect, or empty for "no limiting". */
    public static Resolved<OptionalInt> resolve(RawValue raw, int annotationDefault) {
        if (raw.isBlank()) {
            return annotationDefault > 0
                    ? new Resolved<>(raw.text(), OptionalInt.of(annotationDefault), "missing: default " + annotationDefault)
                    : new Resolved<>(raw.text(), OptionalInt.empty(), "missing, no positive default: no limiting");
        }
        var parsed = StrictInteger.parseSetting(raw.get());
        if (parsed.isEmpty()) {
            return new Resolved<>(raw.text(), OptionalInt.empty(), "unparsable: no limiting");
        }
        var value = parsed.getAsLong();
        if (value <= 0) {
            return new Resolved<>(raw.text(), OptionalInt.empty(), "not positive: no limiting");
        }
        return value > Integer.MAX_VALUE
                ? new Resolved<>(raw.text(), OptionalInt.of(Integer.MAX_VALUE), "above the largest limit: " + Integer.MAX_VALUE)
                : new Resolved<>(raw.text(), OptionalInt.of((int) value), "configured");
    }
}
