package io.changeflow.application.approval;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads configured durations and counts the fail-safe way: a missing, blank, garbled, zero or negative
 * value reads as empty, so the caller's default applies (never "no deadline", never "immediately").
 * Durations are written like Spring's: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 7d},
 * a bare number of milliseconds, or ISO-8601 ({@code PT10M}).
 */
final class LenientSettings {

    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)?");

    private LenientSettings() {
    }

    static Optional<Duration> duration(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        var value = text.strip().toLowerCase(Locale.ROOT);
        try {
            var simple = SIMPLE.matcher(value);
            Duration parsed;
            if (simple.matches()) {
                var amount = Long.parseLong(simple.group(1));
                var unit = simple.group(2) == null ? "ms" : simple.group(2);
                parsed = switch (unit) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            } else {
                parsed = Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            return parsed.isNegative() || parsed.isZero() ? Optional.empty() : Optional.of(parsed);
        } catch (DateTimeParseException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    static Optional<Integer> positiveCount(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            var value = Integer.parseInt(text.strip());
            return value > 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
