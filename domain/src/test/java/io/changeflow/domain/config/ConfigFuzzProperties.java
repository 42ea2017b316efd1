package io.changeflow.domain.config;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.nearMisses;
import static io.changeflow.propertytesting.Generators.oneOf;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Random and near-miss text never makes a configuration parser open, limit or switch on by accident.
 * The parsers strip Unicode whitespace ({@link Character#isWhitespace}) from both ends; a value
 * containing a control character other than tab, line feed or carriage return is never read as
 * valid (it would otherwise slip through: {@code strip()} removes U+001C-U+001F).
 */
class ConfigFuzzProperties {

    /** What no valid value can be: the oracle's answer for text with a control character in it. */
    private static final String UNREADABLE = "\u0000unreadable";

    /**
     * Stripping as documented for {@link String#strip()} (leading and trailing
     * {@link Character#isWhitespace} code points), for text without control characters other than
     * tab, line feed and carriage return; anything else is {@link #UNREADABLE}.
     */
    static String stripped(String s) {
        if (s.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
            return UNREADABLE;
        }
        var start = 0;
        var end = s.length();
        while (start < end && Character.isWhitespace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && Character.isWhitespace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    /** Exactly the four ASCII letters o, p, e, n in any case. */
    /**
     * The model of a keyword value (modes, switches): {@link #stripped}, then only printable ASCII counts,
     * since Java's case mapping would fold look-alikes into keywords (U+017F long s to S, the Kelvin sign to k).
     */
    static String keyword(String s) {
        if (s.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
            return UNREADABLE;
        }
        var t = stripped(s);
        return t.chars().allMatch(c -> c >= 0x21 && c <= 0x7e) ? t : UNREADABLE;
    }

    private static boolean spellsOpen(String s) {
        return s.length() == 4 && "open".equals(s.chars()
                .map(c -> c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString());
    }

    /** A control character that {@link String#strip()} keeps. */
    private static boolean keptControl(int c) {
        return Character.isISOControl(c) && !Character.isWhitespace(c);
    }

    private static final List<String> NEAR_MISSES = List.of(
            "OPEN", "open", "Open", "OPEN ", " open", "0PEN", "OPE N", "opened", "OPEN\u0000", "\u0000OPEN", "OPEN\u00a0",
            "OPEN\u2003", "\u200bOPEN", "TE\u017FT_WINDOW", "TEST_WINDOW\u2003", "\u212Aeep", "tru\u0435", "ＯＰＥＮ", "ΟPEN", "OРEN", "OPEN\n\n", "O\u0000PEN", "OPEN_", "_OPEN", "open!",
            "\u0001open\u001f", "OPEN\u001f", "\u001cOPEN", "OPEN\u0085", "\u3000OPEN\u2028", "OPEN\u007f", "\ufeffOPEN",
            "TEST_WINDOW", "test-window", "CLOSED", "closed ", "true", "TRUE", "True\u0000", "true\u0000", "\u0000true",
            "tru", "truE ", "true\u2003", "1", "-1", "10", " 10 ", "+10", "0", "2147483647", "2147483648", "-0", "٣", "٥",
            "1\u0000", "3 ", "ııı", "ſ", "99999999999", "-99999999999", "99999999999999999999999", "+-1", "--1", "1_000");

    private static final String PADDING = " \t\n\r\u0000\u000b\u001c\u001f\u0085\u00a0\u2003\u2028\u3000\ufeff";

    private static Generator<String> configText() {
        var anyText = anyStrings(12);
        var alphabet = strings("OPENopen0 \t\n\u0000\u0001\u000b\u001f\u00a0\u2003ıİſΟР_-+19", 0, 7);
        var nearMiss = elements(NEAR_MISSES);
        var pad = strings(PADDING, 0, 3);
        Generator<String> padded = s -> pad.generate(s) + nearMiss.generate(s) + pad.generate(s);
        Generator<String> mutated = s -> {
            var core = nearMiss.generate(s);
            var i = Math.min(ints(0, 10).generate(s), core.length());
            return core.substring(0, i) + Character.toString(ints(0, 0xffff).generate(s)) + core.substring(i);
        };
        return oneOf(anyText, alphabet, nearMiss, padded, mutated, nearMisses("OPEN", "open", "true", "TEST_WINDOW", "CLOSED"));
    }

    /** Numbers as people (mis)type them: signs, ASCII and other digits, huge values, padding. */
    private static Generator<String> numberText() {
        var sign = elements("", "", "+", "-", "--", "+-", " -");
        var digits = oneOf(strings("0123456789", 1, 25), strings("0123456789٥３१", 1, 6),
                longs().map(String::valueOf), elements("2147483647", "2147483648", "99999999999", "9223372036854775807",
                        "9223372036854775808", "99999999999999999999"));
        var pad = strings(PADDING, 0, 2);
        return s -> pad.generate(s) + sign.generate(s) + digits.generate(s) + pad.generate(s);
    }

    @Test
    void accessModeIsOpenOnlyWhenTheStrippedUpperCasedTextIsOpen() {
        Property.forAll(configText()).tries(5000).check(raw -> {
            var mode = AccessMode.resolve(RawValue.of(raw)).value();
            var text = stripped(raw);
            assertThat(mode == AccessMode.OPEN).as("[%s]", raw)
                    .isEqualTo(spellsOpen(keyword(raw)));
            if (mode == AccessMode.TEST_WINDOW && !raw.isBlank()) {
                assertThat(keyword(raw).toUpperCase(Locale.ROOT)).as("[%s] only the ASCII keyword", raw).isEqualTo("TEST_WINDOW");
            }
            if (raw.isBlank()) {
                assertThat(mode).isEqualTo(AccessMode.TEST_WINDOW);
            } else if (text.codePoints().anyMatch(ConfigFuzzProperties::keptControl)) {
                assertThat(mode).as("[%s] has a control character", raw).isEqualTo(AccessMode.CLOSED);
            }
        });
    }

    @Test
    void toggleIsOnOnlyWhenTheStrippedTextSpellsTrue() {
        Property.forAll(configText()).tries(5000).check(raw -> {
            var on = Toggle.resolve(RawValue.of(raw)).value();
            var t = keyword(raw);
            assertThat(on).as("[%s]", raw)
                    .isEqualTo(t.length() == 4 && t.equalsIgnoreCase("true") && t.chars().allMatch(c -> c < 128));
        });
    }

    /** A strict integer: optional sign, then ASCII digits only. */
    private static Optional<BigInteger> strictInteger(String t) {
        return Pattern.matches("[+-]?[0-9]+", t) ? Optional.of(new BigInteger(t)) : Optional.empty();
    }

    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);

    @Test
    void rateLimitComesOnlyFromAPositiveStrictIntegerAndSaturates() {
        Property.forAll(oneOf(configText(), numberText())).tries(5000).check(raw -> {
            var limit = RateLimitSetting.resolve(RawValue.of(raw), 10).value();
            if (raw.isBlank()) {
                assertThat(limit).hasValue(10);
                return;
            }
            var positive = strictInteger(stripped(raw)).filter(n -> n.signum() > 0);
            if (positive.isPresent()) {
                assertThat(limit).as("limit from [%s]", raw).hasValue(positive.get().min(INT_MAX).intValueExact());
            } else {
                assertThat(limit).as("no limit from [%s]", raw).isEmpty();
            }
        });
    }

    record RetryInput(String raw, int defaultValue) {}

    @Test
    void retryCountIsTheStrictIntegerClampedToZeroAndTheCapElseTheDefault() {
        Property.forAll(oneOf(configText(), numberText()).zip(ints(0, 10), RetryInput::new)).tries(5000).check(in -> {
            var count = RetryCount.resolve(RawValue.of(in.raw()), in.defaultValue()).value();
            assertThat(count).isBetween(0, RetryCount.CAP);
            var number = strictInteger(stripped(in.raw()));
            var expected = in.raw().isBlank() || number.isEmpty() ? in.defaultValue()
                    : number.get().max(BigInteger.ZERO).min(BigInteger.valueOf(RetryCount.CAP)).intValueExact();
            assertThat(count).as("[%s]", in.raw()).isEqualTo(expected);
        });
    }

    // --- test window -----------------------------------------------------------------------------

    private static final Pattern WELL_FORMED = Pattern.compile(
            "^(?i:(?:MON|TUE|WED|THU|FRI|SAT|SUN)(?:[ \\t\\n\\x0B\\f\\r]*[-,][ \\t\\n\\x0B\\f\\r]*(?:MON|TUE|WED|THU|FRI|SAT|SUN))*"
                    + "[ \\t\\n\\x0B\\f\\r]+)?"
                    + "(?:[01][0-9]|2[0-3]):[0-5][0-9][ \\t\\n\\x0B\\f\\r]*-[ \\t\\n\\x0B\\f\\r]*(?:[01][0-9]|2[0-3]):[0-5][0-9]$");

    private static Generator<String> windowText() {
        Generator<String> time = s -> "%02d:%02d".formatted(ints(0, 29).generate(s), ints(0, 65).generate(s));
        var day = elements("MON", "tue", "Wed", "THU", "fri", "SAT", "sun", "MOX", "XYZ", "MO", "MONDAY", "mön");
        var separator = elements(",", "-", " - ", ", ", ",,");
        var days = lists(day, 1, 3).flatMap(ds -> lists(separator, ds.size() - 1, ds.size() - 1).map(seps -> {
            var sb = new StringBuilder(ds.getFirst());
            for (var i = 1; i < ds.size(); i++) {
                sb.append(seps.get(i - 1)).append(ds.get(i));
            }
            return sb.toString();
        }));
        var daysOrNone = days.injectNull(0.4);
        var gap = elements(" ", "  ", "\t", "");
        var dash = elements("-", " - ", "--", "–", "~");
        Generator<String> shaped = s -> {
            var d = daysOrNone.generate(s);
            var g = gap.generate(s);
            return (d == null ? "" : d + g) + time.generate(s) + dash.generate(s) + time.generate(s);
        };
        var pad = strings(PADDING, 0, 2);
        Generator<String> padded = s -> pad.generate(s) + shaped.generate(s) + pad.generate(s);
        var junk = strings("0123456789:- ,MONTUEWEDFRIXmon\t", 0, 24);
        return oneOf(shaped, shaped, padded, junk, anyStrings(20));
    }

    private static final List<String> ZONES = List.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata",
            "Pacific/Chatham", "+05:30");

    record WindowInput(String raw, String zone, long second) {}

    @Test
    void windowTextOpensNothingUnlessItParses() {
        var times = longs(1_600_000_000L, 1_900_000_000L);
        Generator<WindowInput> inputs = s -> new WindowInput(windowText().generate(s), elements(ZONES).generate(s),
                times.generate(s));
        Property.forAll(inputs).tries(5000).check(in -> {
            var resolved = TestWindow.resolve(RawValue.of(in.raw()), RawValue.of(in.zone()));
            var window = resolved.value();
            var instant = Instant.ofEpochSecond(in.second());
            var text = stripped(in.raw());
            if (!WELL_FORMED.matcher(text).matches() || !opensSomewhere(text)) {
                // not a window, or well-formed but empty (start == end) or a day range with more than two ends
                assertThat(window.isClosed()).as("[%s] is not a window", in.raw()).isTrue();
                assertThat(window.contains(instant)).isFalse();
                return;
            }
            assertThat(resolved.rule()).as("[%s]", in.raw()).isEqualTo("configured");
            assertThat(window.isClosed()).isFalse();
            assertThat(window.contains(instant)).isEqualTo(expectedOpen(text, ZoneId.of(in.zone()), instant));
        });
    }

    private static boolean opensSomewhere(String spec) {
        var parts = spec.split("\\s+(?=\\d{2}:\\d{2}\\s*-)");
        var times = (parts.length == 2 ? parts[1] : parts[0]).split("\\s*-\\s*");
        if (times[0].equals(times[1])) {
            return false;
        }
        if (parts.length == 2) {
            for (var item : parts[0].split("\\s*,\\s*")) {
                if (item.split("\\s*-\\s*").length > 2) {
                    return false;
                }
            }
        }
        return true;
    }

    /** An independent reading of a well-formed window: is {@code instant} inside it? */
    private static boolean expectedOpen(String spec, ZoneId zone, Instant instant) {
        var parts = spec.split("\\s+(?=\\d{2}:\\d{2}\\s*-)");
        var daysText = parts.length == 2 ? parts[0] : null;
        var times = (parts.length == 2 ? parts[1] : parts[0]).split("\\s*-\\s*");
        var start = LocalTime.parse(times[0]);
        var end = LocalTime.parse(times[1]);
        Set<DayOfWeek> days = daysText == null ? EnumSet.allOf(DayOfWeek.class) : days(daysText);
        var local = instant.atZone(zone);
        var minuteOfDay = Duration.between(LocalTime.MIDNIGHT, local.toLocalTime());
        var from = Duration.between(LocalTime.MIDNIGHT, start);
        var to = Duration.between(LocalTime.MIDNIGHT, end);
        if (from.compareTo(to) < 0) {
            return days.contains(local.getDayOfWeek()) && minuteOfDay.compareTo(from) >= 0 && minuteOfDay.compareTo(to) < 0;
        }
        return (minuteOfDay.compareTo(from) >= 0 && days.contains(local.getDayOfWeek()))
                || (minuteOfDay.compareTo(to) < 0 && days.contains(local.getDayOfWeek().minus(1)));
    }

    private static Set<DayOfWeek> days(String text) {
        var result = EnumSet.noneOf(DayOfWeek.class);
        for (var item : text.split("\\s*,\\s*")) {
            var ends = item.split("\\s*-\\s*");
            var first = day(ends[0]);
            var last = day(ends[ends.length - 1]);
            for (var d = first; ; d = d.plus(1)) {
                result.add(d);
                if (d == last) {
                    break;
                }
            }
        }
        return result;
    }

    private static DayOfWeek day(String abbreviation) {
        for (var d : DayOfWeek.values()) {
            if (d.name().regionMatches(true, 0, abbreviation, 0, 3) && abbreviation.length() == 3) {
                return d;
            }
        }
        throw new IllegalArgumentException(abbreviation);
    }

    @Test
    void randomZoneTextNeverOpensAWindow() {
        Property.forAll(configText()).tries(2000).check(zone -> {
            var resolved = TestWindow.resolve(RawValue.of("00:00-23:59"), RawValue.of(zone));
            var valid = isZone(stripped(zone));
            assertThat(resolved.value().isClosed()).as("[%s]", zone).isEqualTo(!valid || zone.isBlank());
        });
    }

    private static boolean isZone(String id) {
        try {
            ZoneId.of(id);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
