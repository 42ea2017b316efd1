package io.changeflow.domain.request;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A target's rules for how long a grant lasts (issue 32 item 3, {@code changeflow.catalog.targets[n].max-duration}
 * and {@code default-duration}): the longest a request may ask for, and what a request that names no end gets.
 * A target with neither lets a grant run without end ("never"); a target with a maximum never does: a request
 * without an end gets the default, or the maximum when no default is configured.
 *
 * @param max             the longest grant, counted from the submission; empty: only the service-wide
 *                        {@link Submission#LONGEST_GRANT}, and "never" is allowed when no default is set either
 * @param defaultDuration what a request without an end gets; empty: the maximum, or no end when there is no maximum
 * @param durationsAllowed whether a request may ask for a duration counted from when its approved line is written
 *                        ({@code allow-durations}, default false: a release before durations, still running during a
 *                        rolling upgrade or after a rollback, would write such a request's line without an end; the
 *                        maximum bounds the duration asked)
 */
public record GrantDurations(Optional<Duration> max, Optional<Duration> defaultDuration, boolean durationsAllowed) {

    /** Rules that take no durations (requests name an end). */
    public GrantDurations(Optional<Duration> max, Optional<Duration> defaultDuration) {
        this(max, defaultDuration, false);
    }

    /**
     * The stricter side a garbled value falls back to: the smallest documented default (one day), never "unlimited".
     */
    public static final Duration GARBLED_FALLBACK = Duration.ofDays(1);

    /** No rule of the target's own: any end up to {@link Submission#LONGEST_GRANT}, or none; no durations. */
    public static final GrantDurations NONE = new GrantDurations(Optional.empty(), Optional.empty());

    public GrantDurations {
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(defaultDuration, "defaultDuration");
        max.ifPresent(GrantDurations::requirePositive);
        defaultDuration.ifPresent(GrantDurations::requirePositive);
        if (max.isPresent() && defaultDuration.isPresent() && defaultDuration.get().compareTo(max.get()) > 0) {
            defaultDuration = max;
        }
    }

    /**
     * The field error of a request "for {@code asked}" on this target, if any: {@code NOT_ALLOWED} where the target
     * takes no durations, {@code TOO_FAR} (the limit in the message) beyond the maximum. Empty: the duration stands.
     */
    public Optional<FieldError> checkDuration(Duration asked) {
        Objects.requireNonNull(asked, "asked");
        if (!durationsAllowed) {
            return Optional.of(new FieldError("duration", "NOT_ALLOWED",
                    "this target takes an end (expiresAt), not a duration"));
        }
        if (max.isPresent() && asked.compareTo(max.get()) > 0) {
            return Optional.of(new FieldError("duration", "TOO_FAR", "this target grants at most "
                    + describe(max.get()) + " (" + iso(max.get()) + "); choose a shorter duration"));
        }
        return Optional.empty();
    }

    /** Whether a request of this target may ask for a grant without end. */
    public boolean allowsNever() {
        return max.isEmpty() && defaultDuration.isEmpty();
    }

    /** The outcome of {@link #apply}: the grant's end, or the field error of a request beyond the maximum. */
    public sealed interface Applied {
        /** @param expiresAt the end the grant gets (the request's own, or the default); empty: no end */
        record Ends(Optional<Instant> expiresAt) implements Applied {}

        record TooFar(FieldError error) implements Applied {}
    }

    /**
     * The end a request submitted at {@code now} gets: {@code requested} when within the maximum (400 TOO_FAR on the
     * field {@code expiresAt} beyond it, the limit in the message), else the default, else the maximum, else none.
     */
    /**
     * The last day a date-only end may name when the latest end is {@code latest}: a day's end is kept as 00:00 UTC of
     * the next day, so the day before {@code latest}'s (UTC).
     */
    static java.time.LocalDate lastDay(Instant latest) {
        return java.time.LocalDate.ofInstant(latest, java.time.ZoneOffset.UTC).minusDays(1);
    }

    public Applied apply(Optional<Instant> requested, Instant now) {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(now, "now");
        if (requested.isPresent()) {
            if (max.isPresent() && requested.get().isAfter(now.plus(max.get()))) {
                return new Applied.TooFar(new FieldError("expiresAt", "TOO_FAR",
                        "this target grants at most " + describe(max.get()) + " (" + iso(max.get())
                                + "); choose an end on or before " + lastDay(now.plus(max.get()))));
            }
            return new Applied.Ends(requested);
        }
        return new Applied.Ends(defaultDuration.or(() -> max).map(now::plus));
    }

    /**
     * A configured duration: ISO-8601 ({@code P30D}, {@code PT8H}) or a number with a unit ({@code 30d}, {@code 8h},
     * {@code 90m}); empty for a missing or blank value. A garbled, zero or negative value, or one beyond
     * {@link Submission#LONGEST_GRANT}, is {@link Parsed#garbled()}: the caller applies {@link #GARBLED_FALLBACK}.
     */
    public static Parsed parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return new Parsed(Optional.empty(), false);
        }
        var text = raw.strip().toLowerCase(Locale.ROOT);
        Duration duration;
        try {
            if (text.startsWith("p")) {
                duration = Duration.parse(text.toUpperCase(Locale.ROOT));
            } else if (text.matches("[0-9]{1,6}[dhm]")) {
                var amount = Long.parseLong(text.substring(0, text.length() - 1));
                duration = switch (text.charAt(text.length() - 1)) {
                    case 'd' -> Duration.ofDays(amount);
                    case 'h' -> Duration.ofHours(amount);
                    default -> Duration.ofMinutes(amount);
                };
            } else {
                return Parsed.GARBLED;
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            return Parsed.GARBLED;
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(Submission.LONGEST_GRANT) > 0) {
            return Parsed.GARBLED;
        }
        return new Parsed(Optional.of(duration), false);
    }

    /** A parsed setting: its value (empty when not set), or garbled. */
    public record Parsed(Optional<Duration> value, boolean garbled) {
        static final Parsed GARBLED = new Parsed(Optional.empty(), true);

        /** The value to use: a garbled setting is {@link #GARBLED_FALLBACK}. */
        public Optional<Duration> orFallback() {
            return garbled ? Optional.of(GARBLED_FALLBACK) : value;
        }
    }

    /** The rules from two configured values, each garbled one at {@link #GARBLED_FALLBACK}. */
    public static GrantDurations configured(String max, String defaultDuration) {
        return configured(max, defaultDuration, null);
    }

    /**
     * The rules from three configured values: {@code allowDurations} is {@code true} or {@code false} (any case);
     * missing, blank or garbled: false (requests name an end).
     */
    public static GrantDurations configured(String max, String defaultDuration, String allowDurations) {
        var allowed = allowDurations != null && allowDurations.strip().equalsIgnoreCase("true");
        return new GrantDurations(parse(max).orFallback(), parse(defaultDuration).orFallback(), allowed);
    }

    /** For people: {@code 30 days}, {@code 8 hours}, {@code 90 minutes}. */
    public static String describe(Duration duration) {
        if (duration.toMinutesPart() == 0 && duration.toSecondsPart() == 0 && duration.toHoursPart() == 0) {
            return plural(duration.toDays(), "day");
        }
        if (duration.toSecondsPart() == 0 && duration.toMinutesPart() == 0) {
            return plural(duration.toHours(), "hour");
        }
        return plural(Math.max(1, duration.toMinutes()), "minute");
    }

    /** ISO-8601 as people write it: whole days as {@code P30D}, else {@code PT8H}. */
    public static String iso(Duration duration) {
        return duration.toSeconds() % 86_400 == 0 ? "P" + duration.toDays() + "D" : duration.toString();
    }

    private static String plural(long amount, String unit) {
        return amount + " " + unit + (amount == 1 ? "" : "s");
    }

    private static void requirePositive(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a grant duration is positive: " + duration);
        }
    }
}
