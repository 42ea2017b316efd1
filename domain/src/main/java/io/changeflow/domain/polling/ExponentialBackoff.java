package io.changeflow.domain.polling;

import java.time.Duration;
import java.util.Objects;

/** Delay before retry n (1-based): {@code base * 2^(n-1)}, never more than {@code max}, overflow-safe. */
public record ExponentialBackoff(Duration base, Duration max) {

    public ExponentialBackoff {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(max, "max");
        if (base.isNegative() || max.isNegative()) {
            throw new IllegalArgumentException("backoff durations must not be negative");
        }
    }

    public Duration delayBefore(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry numbers start at 1");
        }
        var shift = Math.min(retry - 1, 30);
        var millis = base.toMillis();
        if (millis > 0 && millis > (max.toMillis() >> shift)) {
            return max;
        }
        var delay = Duration.ofMillis(millis << shift);
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
