package io.changeflow.domain.config;

import java.time.Duration;

/**
 * The length of the sliding rate-limit window ({@code ratelimit.windowSeconds}), in whole seconds.
 * Missing, unparsable or not positive gives {@value #DEFAULT_SECONDS} s; above {@value #MAX_SECONDS}
 * it is capped, so a typo (an extra zero, a day in seconds) cannot lock a person out for hours.
 */
public final class RateLimitWindow {

    public static final int DEFAULT_SECONDS = 60;
    public static final int MAX_SECONDS = 3600;

    private RateLimitWindow() {
    }

    public static Resolved<Duration> resolve(RawValue raw) {
        var fallback = Duration.ofSeconds(DEFAULT_SECONDS);
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), fallback, "missing: default " + DEFAULT_SECONDS);
        }
        var parsed = StrictInteger.parseSetting(raw.get());
        if (parsed.isEmpty()) {
            return new Resolved<>(raw.text(), fallback, "unparsable: default " + DEFAULT_SECONDS);
        }
        var seconds = parsed.getAsLong();
        if (seconds <= 0) {
            return new Resolved<>(raw.text(), fallback, "not positive: default " + DEFAULT_SECONDS);
        }
        if (seconds > MAX_SECONDS) {
            return new Resolved<>(raw.text(), Duration.ofSeconds(MAX_SECONDS), "above the cap: " + MAX_SECONDS);
        }
        return new Resolved<>(raw.text(), Duration.ofSeconds(seconds), "configured");
    }
}
