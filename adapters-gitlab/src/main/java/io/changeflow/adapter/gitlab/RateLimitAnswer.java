package io.changeflow.adapter.gitlab;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Function;

/**
 * How long GitLab asks to wait after a 429 ("Too Many Requests"). GitLab's rate limiter answers with
 * {@code Retry-After} (seconds until the throttle period ends) and the {@code RateLimit-*} headers
 * ({@code RateLimit-Reset}: a Unix time in seconds; see GitLab's {@code doc/security/rate_limits.md} and
 * {@code doc/administration/settings/user_and_ip_rate_limits.md}). {@code Retry-After} wins; an HTTP date is
 * accepted too. Without a usable header the wait is {@link #DEFAULT_WAIT}, GitLab's throttle period.
 */
final class RateLimitAnswer {

    /** GitLab's user and IP rate limits count per minute. */
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(60);

    private RateLimitAnswer() {
    }

    /**
     * @param header a header's first value by name (case-insensitive), or null when absent
     * @param now    the current time, for {@code RateLimit-Reset} and an HTTP-date {@code Retry-After}
     */
    static Duration waitOf(Function<String, String> header, Instant now) {
        return retryAfter(header.apply("Retry-After"), now)
                .or(() -> reset(header.apply("RateLimit-Reset"), now))
                .orElse(DEFAULT_WAIT);
    }

    private static Optional<Duration> retryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        var text = value.trim();
        try {
            var seconds = Long.parseLong(text);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
        } catch (NumberFormatException notSeconds) {
            try {
                var at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
            } catch (DateTimeParseException garbled) {
                return Optional.empty();
            }
        }
    }

    private static Optional<Duration> reset(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            var at = Instant.ofEpochSecond(Long.parseLong(value.trim()));
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (NumberFormatException | java.time.DateTimeException garbled) {
            return Optional.empty();
        }
    }
}
