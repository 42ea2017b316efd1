package io.changeflow.domain.request;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code duration} of a submission (issue 32 item 3, "for 8 hours"): how long the grant lasts once its approved
 * line is written. The forms accepted are ISO-8601 durations of whole days, hours and minutes, each part at most once
 * and in that order: {@code P7D}, {@code PT8H}, {@code PT90M}, {@code P1DT12H}, {@code PT8H30M} (letters in either
 * case). Weeks, months and years are refused (a month has no fixed length), and so are seconds, fractions and signs.
 * docs/api.md "Durations".
 */
public final class RequestedDuration {

    private static final Pattern FORM = Pattern.compile("P(?:([0-9]{1,3})D)?(?:T(?:([0-9]{1,4})H)?(?:([0-9]{1,6})M)?)?");

    private RequestedDuration() {
    }

    /** The outcome of {@link #parse}: the duration asked, or the field error of {@code duration}. */
    public sealed interface Parsed {
        record Asked(Duration value) implements Parsed {}

        record Refused(FieldError error) implements Parsed {}
    }

    /** Reads {@code raw} (not blank): a form above, positive, and at most {@link Submission#LONGEST_GRANT}. */
    public static Parsed parse(String raw) {
        var text = raw.strip().toUpperCase(Locale.ROOT);
        var form = FORM.matcher(text);
        if (!form.matches() || text.equals("P") || text.endsWith("T")) {
            return refused("INVALID_FORMAT", "duration is an ISO-8601 duration of days, hours and minutes: "
                    + "PT8H, P7D, P1DT12H, PT90M");
        }
        var duration = Duration.ofDays(part(form.group(1))).plusHours(part(form.group(2)))
                .plusMinutes(part(form.group(3)));
        if (duration.isZero()) {
            return refused("TOO_SHORT", "duration is at least one minute");
        }
        if (duration.compareTo(Submission.LONGEST_GRANT) > 0) {
            return refused("TOO_FAR", "duration is at most 366 days (P366D)");
        }
        return new Parsed.Asked(duration);
    }

    private static long part(String digits) {
        return Optional.ofNullable(digits).map(Long::parseLong).orElse(0L);
    }

    private static Parsed refused(String code, String message) {
        return new Parsed.Refused(new FieldError("duration", code, message));
    }
}
