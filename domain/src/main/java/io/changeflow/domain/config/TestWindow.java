package io.changeflow.domain.config;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The daily period in which {@link AccessMode#TEST_WINDOW} accepts submissions ({@code [DAYS ]HH:mm-HH:mm}), in a fixed
 * zone so the same configuration means the same period on every host. A missing or invalid window or zone gives the
 * closed window: misconfiguration never opens access. The format: docs/configuration.md, {@code ACCESS_TEST_WINDOW}.
 */
public final class TestWindow {

    private static final Pattern FORMAT = Pattern.compile(
            "^(?:(?<days>[A-Za-z]{3}(?:\\s*[-,]\\s*[A-Za-z]{3})*)\\s+)?(?<start>\\d{2}:\\d{2})\\s*-\\s*(?<end>\\d{2}:\\d{2})$");

    private static final TestWindow CLOSED = new TestWindow(EnumSet.noneOf(DayOfWeek.class), LocalTime.MIDNIGHT,
            LocalTime.MIDNIGHT, ZoneId.of("UTC"), "closed");

    private final Set<DayOfWeek> days;
    private final LocalTime start;
    private final LocalTime end;
    private final ZoneId zone;
    private final String description;

    private TestWindow(Set<DayOfWeek> days, LocalTime start, LocalTime end, ZoneId zone, String description) {
        this.days = days;
        this.start = start;
        this.end = end;
        this.zone = zone;
        this.description = description;
    }

    public static TestWindow closed() {
        return CLOSED;
    }

    /** Parses both settings; anything missing or invalid resolves to the closed window. */
    public static Resolved<TestWindow> resolve(RawValue rawWindow, RawValue rawZone) {
        if (rawWindow.isBlank()) {
            return new Resolved<>(rawWindow.text(), CLOSED, "missing window: closed");
        }
        if (rawZone.isBlank()) {
            return new Resolved<>(rawWindow.text(), CLOSED, "missing zone: closed");
        }
        if (ConfigText.hasControlCharacters(rawWindow.get()) || ConfigText.hasControlCharacters(rawZone.get())) {
            return new Resolved<>(rawWindow.text(), CLOSED, "control characters: closed");
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(rawZone.get().strip());
        } catch (RuntimeException e) {
            return new Resolved<>(rawWindow.text(), CLOSED, "invalid zone: closed");
        }
        var matcher = FORMAT.matcher(rawWindow.get().strip());
        if (!matcher.matches()) {
            return new Resolved<>(rawWindow.text(), CLOSED, "invalid window: closed");
        }
        try {
            var start = LocalTime.parse(matcher.group("start"));
            var end = LocalTime.parse(matcher.group("end"));
            if (start.equals(end)) {
                return new Resolved<>(rawWindow.text(), CLOSED, "empty window: closed");
            }
            var days = parseDays(matcher.group("days"));
            if (days.isEmpty()) {
                return new Resolved<>(rawWindow.text(), CLOSED, "invalid days: closed");
            }
            var window = new TestWindow(days, start, end, zone, rawWindow.get().strip() + " " + zone.getId());
            return new Resolved<>(rawWindow.text(), window, "configured");
        } catch (DateTimeParseException e) {
            return new Resolved<>(rawWindow.text(), CLOSED, "invalid time: closed");
        }
    }

    private static Set<DayOfWeek> parseDays(String spec) {
        if (spec == null) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        var result = EnumSet.noneOf(DayOfWeek.class);
        for (var part : spec.split(",")) {
            var range = part.strip().split("\\s*-\\s*");
            var from = day(range[0]);
            var to = range.length > 1 ? day(range[1]) : from;
            if (from.isEmpty() || to.isEmpty() || range.length > 2) {
                return EnumSet.noneOf(DayOfWeek.class);
            }
            var d = from.get();
            result.add(d);
            while (d != to.get()) {
                d = d.plus(1);
                result.add(d);
            }
        }
        return result;
    }

    private static Optional<DayOfWeek> day(String abbreviation) {
        for (var day : DayOfWeek.values()) {
            if (day.name().substring(0, 3).equals(ConfigText.keyword(abbreviation))) {
                return Optional.of(day);
            }
        }
        return Optional.empty();
    }

    /** True when {@code instant} falls inside the window (start inclusive, end exclusive). */
    public boolean contains(Instant instant) {
        if (days.isEmpty()) {
            return false;
        }
        var local = instant.atZone(zone);
        var time = local.toLocalTime();
        if (start.isBefore(end)) {
            return days.contains(local.getDayOfWeek()) && !time.isBefore(start) && time.isBefore(end);
        }
        // Crosses midnight: the late part belongs to today, the early part to yesterday's window.
        if (!time.isBefore(start)) {
            return days.contains(local.getDayOfWeek());
        }
        return time.isBefore(end) && days.contains(local.getDayOfWeek().minus(1));
    }

    public boolean isClosed() {
        return days.isEmpty();
    }

    @Override
    public String toString() {
        return description;
    }
}
