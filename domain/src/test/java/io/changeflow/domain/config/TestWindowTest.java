package io.changeflow.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TestWindowTest {

    /** A week whose days are known: Monday 2025-06-02 to Sunday 2025-06-08. */
    private static final LocalDate MONDAY = LocalDate.of(2025, 6, 2);

    private static TestWindow window(String window, String zone) {
        var resolved = TestWindow.resolve(RawValue.of(window), RawValue.of(zone));
        assertThat(resolved.rule()).as(window + " in " + zone).isEqualTo("configured");
        assertThat(resolved.value().isClosed()).isFalse();
        return resolved.value();
    }

    private static Instant at(DayOfWeek day, String time, String zone) {
        var date = MONDAY.plusDays(day.getValue() - 1L);
        assertThat(date.getDayOfWeek()).isEqualTo(day);
        return LocalDateTime.of(date, LocalTime.parse(time)).atZone(ZoneId.of(zone)).toInstant();
    }

    private static final List<DayOfWeek> EVERY_DAY = List.of(DayOfWeek.values());

    /** {@code w} is open on each of {@code days} at each of {@code times} (UTC). */
    private static void assertOpen(TestWindow w, List<DayOfWeek> days, String... times) {
        assertOpenness(w, true, days, times);
    }

    /** {@code w} is shut on each of {@code days} at each of {@code times} (UTC). */
    private static void assertShut(TestWindow w, List<DayOfWeek> days, String... times) {
        assertOpenness(w, false, days, times);
    }

    private static void assertOpenness(TestWindow w, boolean open, List<DayOfWeek> days, String... times) {
        for (var day : days) {
            for (var time : times) {
                assertThat(w.contains(at(day, time, "UTC"))).as(w + ": " + day + " " + time).isEqualTo(open);
            }
        }
    }

    private static Instant utc(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void dailyWindowIncludesItsStartAndExcludesItsEnd() {
        var w = window("09:00-18:00", "UTC");
        assertOpen(w, EVERY_DAY, "09:00", "12:30", "17:59:59.999");
        assertShut(w, EVERY_DAY, "08:59:59", "18:00", "00:00");
    }

    @Test
    void dayRangeOpensOnlyOnItsDays() {
        var w = window("MON-FRI 09:00-18:00", "UTC");
        assertOpen(w, List.of(DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY), "10:00");
        assertOpen(w, List.of(DayOfWeek.FRIDAY), "17:00");
        assertShut(w, List.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), "10:00");
    }

    @Test
    void dayRangeMayWrapAroundTheWeekend() {
        var w = window("FRI-MON 09:00-18:00", "UTC");
        assertOpen(w, List.of(DayOfWeek.FRIDAY, DayOfWeek.SATURDAY, DayOfWeek.SUNDAY, DayOfWeek.MONDAY), "10:00");
        assertShut(w, List.of(DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY), "10:00");
    }

    @Test
    void commaListOpensOnTheListedDaysInAnyCaseAndSpacing() {
        for (var spec : new String[] {"MON,WED 10:00-11:00", "mon, wed 10:00-11:00", "Mon ,Wed 10:00 - 11:00"}) {
            var w = window(spec, "UTC");
            assertOpen(w, List.of(DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY), "10:30");
            assertShut(w, List.of(DayOfWeek.TUESDAY, DayOfWeek.THURSDAY), "10:30");
        }
    }

    @Test
    void listMayCombineRangesAndSingleDays() {
        var w = window("MON-TUE,FRI 10:00-11:00", "UTC");
        assertOpen(w, List.of(DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.FRIDAY), "10:00");
        assertShut(w, List.of(DayOfWeek.WEDNESDAY), "10:00");
    }

    @Test
    void overnightWindowBelongsToTheDayItStarts() {
        var w = window("MON,WED 22:00-02:00", "UTC");
        assertThat(w.contains(at(DayOfWeek.MONDAY, "21:59", "UTC"))).isFalse();
        assertThat(w.contains(at(DayOfWeek.MONDAY, "22:00", "UTC"))).isTrue();
        assertThat(w.contains(at(DayOfWeek.MONDAY, "23:59", "UTC"))).isTrue();
        assertThat(w.contains(at(DayOfWeek.TUESDAY, "00:00", "UTC"))).as("Monday's window after midnight").isTrue();
        assertThat(w.contains(at(DayOfWeek.TUESDAY, "01:59", "UTC"))).isTrue();
        assertThat(w.contains(at(DayOfWeek.TUESDAY, "02:00", "UTC"))).isFalse();
        assertThat(w.contains(at(DayOfWeek.TUESDAY, "23:00", "UTC"))).as("no window starts on Tuesday").isFalse();
        assertThat(w.contains(at(DayOfWeek.WEDNESDAY, "01:00", "UTC"))).as("Tuesday had no window").isFalse();
        assertThat(w.contains(at(DayOfWeek.WEDNESDAY, "22:30", "UTC"))).isTrue();
        assertThat(w.contains(at(DayOfWeek.THURSDAY, "01:00", "UTC"))).isTrue();
        assertThat(w.contains(at(DayOfWeek.MONDAY, "01:00", "UTC"))).as("Sunday had no window").isFalse();
    }

    @Test
    void dailyOvernightWindowIsOpenAcrossMidnightEveryDay() {
        var w = window("22:00-06:00", "UTC");
        assertOpen(w, EVERY_DAY, "23:00", "05:59");
        assertShut(w, EVERY_DAY, "06:00", "12:00");
    }

    @Test
    void usesItsOwnZoneWhateverTheJvmDefaultZone() {
        var original = TimeZone.getDefault();
        try {
            var answers = new ArrayList<Boolean>();
            for (var jvmZone : new String[] {"UTC", "Pacific/Kiritimati", "America/Los_Angeles", "Asia/Kolkata"}) {
                TimeZone.setDefault(TimeZone.getTimeZone(jvmZone));
                var w = window("MON-FRI 09:00-18:00", "Europe/Berlin");
                // Monday 08:30 UTC is 10:30 in Berlin (summer time): open; 16:30 UTC is 18:30: closed
                answers.add(w.contains(utc("2025-06-02T08:30:00Z")));
                answers.add(w.contains(utc("2025-06-02T16:30:00Z")));
                // Friday 06:59 UTC is 08:59 in Berlin (closed), 07:00 UTC is 09:00 (open), whatever the host's zone
                answers.add(w.contains(utc("2025-06-06T06:59:00Z")));
                answers.add(w.contains(utc("2025-06-06T07:00:00Z")));
            }
            assertThat(answers).containsExactly(
                    true, false, false, true,
                    true, false, false, true,
                    true, false, false, true,
                    true, false, false, true);
        } finally {
            TimeZone.setDefault(original);
        }
        assertThat(TimeZone.getDefault()).isEqualTo(original);
    }

    @Test
    void sameWindowInAnotherZoneIsAnotherPeriod() {
        var tokyo = window("09:00-10:00", "Asia/Tokyo");
        assertThat(tokyo.contains(utc("2025-06-02T00:00:00Z"))).isTrue();
        assertThat(tokyo.contains(utc("2025-06-02T09:00:00Z"))).isFalse();
        var offset = window("09:00-10:00", "+02:00");
        assertThat(offset.contains(utc("2025-06-02T07:30:00Z"))).isTrue();
    }

    @ParameterizedTest(name = "{0}: inside {1}")
    @CsvSource({
            // Saturday 2025-03-29, winter time (UTC+1)
            "2025-03-29T07:59:00Z, false", "2025-03-29T08:00:00Z, true", "2025-03-29T16:59:00Z, true",
            "2025-03-29T17:00:00Z, false",
            // Sunday 2025-03-30, summer time (UTC+2) from 01:00 UTC: the same local hours are an hour earlier in UTC
            "2025-03-30T06:59:00Z, false", "2025-03-30T07:00:00Z, true", "2025-03-30T15:59:00Z, true",
            "2025-03-30T16:00:00Z, false"})
    void followsSpringForwardInBerlin(Instant at, boolean inside) {
        var w = window("09:00-18:00", "Europe/Berlin");
        assertThat(w.contains(at)).isEqualTo(inside);
    }

    /** 2025-03-30: 02:00 CET jumps to 03:00 CEST at 01:00 UTC. */
    @ParameterizedTest(name = "{0} ({2}): inside {1}")
    @CsvSource({"2025-03-30T00:29:00Z, false, 01:29 CET", "2025-03-30T00:30:00Z, true, 01:30 CET",
            "2025-03-30T01:00:00Z, true, 03:00 CEST", "2025-03-30T01:29:00Z, true, 03:29 CEST",
            "2025-03-30T01:30:00Z, false, 03:30 CEST"})
    void windowAcrossTheSkippedHourIsShorterThatNight(Instant at, boolean inside, String berlin) {
        var w = window("01:30-03:30", "Europe/Berlin");
        assertThat(w.contains(at)).isEqualTo(inside);
    }

    /** 2025-10-26: 03:00 CEST falls back to 02:00 CET at 01:00 UTC. */
    @ParameterizedTest(name = "{0} ({2}): inside {1}")
    @CsvSource({"2025-10-25T23:59:00Z, false, 01:59 CEST", "2025-10-26T00:00:00Z, true, 02:00 CEST",
            "2025-10-26T00:59:00Z, true, 02:59 CEST", "2025-10-26T01:00:00Z, true, 02:00 CET",
            "2025-10-26T01:59:00Z, true, 02:59 CET", "2025-10-26T02:00:00Z, false, 03:00 CET"})
    void repeatedHourAtFallBackIsInsideTheWindowTwice(Instant at, boolean inside, String berlin) {
        var w = window("02:00-03:00", "Europe/Berlin");
        assertThat(w.contains(at)).isEqualTo(inside);
    }

    @Test
    void missingWindowOrZoneGivesTheClosedWindow() {
        assertClosed(TestWindow.resolve(RawValue.missing(), RawValue.of("UTC")), "missing window");
        assertClosed(TestWindow.resolve(RawValue.of("  "), RawValue.of("UTC")), "missing window");
        assertClosed(TestWindow.resolve(RawValue.of("09:00-18:00"), RawValue.missing()), "missing zone");
        assertClosed(TestWindow.resolve(RawValue.of("09:00-18:00"), RawValue.of(" ")), "missing zone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mars/Olympus", "Europe/Berln", "CET+1", "+25:00", "UTC+", "europe/berlin ", "GMT+99",
            "Europe/Berlin/X", "../etc/passwd"})
    void invalidZoneGivesTheClosedWindow(String zone) {
        var resolved = TestWindow.resolve(RawValue.of("09:00-18:00"), RawValue.of(zone));
        assertThat(resolved.value().isClosed()).isTrue();
        assertThat(resolved.value().contains(utc("2025-06-02T12:00:00Z"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"9:00-18:00", "09:00-24:00", "24:00-01:00", "09:60-10:00", "25:00-26:00", "09:00",
            "09:00-", "-18:00", "09:00-18:00-19:00", "0900-1800", "09.00-18.00", "09:00:00-18:00:00", "always", "*",
            "MON09:00-10:00", "XYZ 09:00-10:00", "MON-TUE-WED 09:00-10:00", "MONDAY 09:00-10:00", "MO 09:00-10:00",
            "MON,,TUE 09:00-10:00", "MON, 09:00-10:00", "MON-FRI", "MON-FRI 09:00", "０９:００-１８:００", "09:00–18:00"})
    void invalidWindowGivesTheClosedWindow(String window) {
        var resolved = TestWindow.resolve(RawValue.of(window), RawValue.of("UTC"));
        assertThat(resolved.value().isClosed()).as(window).isTrue();
        assertThat(resolved.rule()).contains("closed");
        for (var day : DayOfWeek.values()) {
            for (var hour = 0; hour < 24; hour++) {
                assertThat(resolved.value().contains(at(day, "%02d:30".formatted(hour), "UTC"))).isFalse();
            }
        }
    }

    @Test
    void emptyWindowIsClosed() {
        assertClosed(TestWindow.resolve(RawValue.of("09:00-09:00"), RawValue.of("UTC")), "empty");
    }

    @Test
    void closedWindowContainsNothing() {
        var closed = TestWindow.closed();
        assertThat(closed.isClosed()).isTrue();
        assertThat(closed.contains(Instant.EPOCH)).isFalse();
        assertThat(closed.contains(utc("2025-06-02T12:00:00Z"))).isFalse();
        assertThat(closed).hasToString("closed");
    }

    @Test
    void stripsUnicodeWhitespaceButNotControlCharacters() {
        var spaced = TestWindow.resolve(RawValue.of("\u2003MON-FRI 09:00-18:00\u3000"), RawValue.of("\u2028UTC "));
        assertThat(spaced.rule()).isEqualTo("configured");
        assertThat(spaced.value()).hasToString("MON-FRI 09:00-18:00 UTC");
        assertClosed(TestWindow.resolve(RawValue.of("09:00-18:00\u0000"), RawValue.of("UTC")), "control characters");
        assertClosed(TestWindow.resolve(RawValue.of("\u000109:00-18:00"), RawValue.of("UTC")), "control characters");
        assertClosed(TestWindow.resolve(RawValue.of("09:00-18:00"), RawValue.of("UTC\u0000")), "control characters");
        assertClosed(TestWindow.resolve(RawValue.of("09:00-18:00\u001f"), RawValue.of("UTC")), "control characters");
    }

    @Test
    void describesAConfiguredWindowWithItsZone() {
        assertThat(window(" MON-FRI 09:00-18:00 ", "Europe/Berlin")).hasToString("MON-FRI 09:00-18:00 Europe/Berlin");
    }

    private static void assertClosed(Resolved<TestWindow> resolved, String ruleFragment) {
        assertThat(resolved.value()).isSameAs(TestWindow.closed());
        assertThat(resolved.rule()).contains(ruleFragment).contains("closed");
    }
}
