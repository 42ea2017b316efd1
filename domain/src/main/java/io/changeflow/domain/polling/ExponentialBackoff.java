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
        if (base.isZero() || base.compareTo(max) >= 0) {
            return base.compareTo(max) > 0 ? max : base;
        }
        var delay = base;
        for (var i = 1; i < retry; i++) {
            if (delay.compareTo(max.dividedBy(2)) > 0) {
                return max;
            }
            delay = delay.multipliedBy(2);
        }
        return delay;
    }
}
