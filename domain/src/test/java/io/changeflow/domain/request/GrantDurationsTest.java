package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue 32 item 3: a target's maximum and default duration, and the stricter fallback of a garbled setting. */
class GrantDurationsTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final GrantDurations DB = new GrantDurations(Optional.of(Duration.ofDays(30)), Optional.of(Duration.ofDays(7)));

    @Test
    void anEndWithinTheMaximumIsKeptAndOneBeyondItIsTooFarWithTheLimit() {
        var limit = NOW.plus(Duration.ofDays(30));
        assertThat(DB.apply(Optional.of(limit), NOW)).isEqualTo(new GrantDurations.Applied.Ends(Optional.of(limit)));

        var beyond = DB.apply(Optional.of(limit.plusSeconds(1)), NOW);

        assertThat(beyond).isInstanceOfSatisfying(GrantDurations.Applied.TooFar.class, tooFar -> {
            assertThat(tooFar.error().field()).isEqualTo("expiresAt");
            assertThat(tooFar.error().code()).isEqualTo("TOO_FAR");
            assertThat(tooFar.error().message()).contains("30 days", "P30D", "on or before 2027-01-05");
        });
        // the day the message names is the last a date-only end may name (kept as 00:00 UTC of the next day)
        var lastDay = Instant.parse("2027-01-06T00:00:00Z");
        assertThat(DB.apply(Optional.of(lastDay), NOW)).isEqualTo(new GrantDurations.Applied.Ends(Optional.of(lastDay)));
        assertThat(DB.apply(Optional.of(lastDay.plus(Duration.ofDays(1))), NOW))
                .isInstanceOf(GrantDurations.Applied.TooFar.class);
    }

    @Test
    void noEndIsTheDefaultThenTheMaximumAndNeverOnlyWithoutEither() {
        assertThat(DB.apply(Optional.empty(), NOW))
                .isEqualTo(new GrantDurations.Applied.Ends(Optional.of(NOW.plus(Duration.ofDays(7)))));
        var maxOnly = new GrantDurations(Optional.of(Duration.ofHours(8)), Optional.empty());
        assertThat(maxOnly.apply(Optional.empty(), NOW))
                .isEqualTo(new GrantDurations.Applied.Ends(Optional.of(NOW.plus(Duration.ofHours(8)))));
        assertThat(maxOnly.allowsNever()).isFalse();
        assertThat(GrantDurations.NONE.apply(Optional.empty(), NOW)).isEqualTo(new GrantDurations.Applied.Ends(Optional.empty()));
        assertThat(GrantDurations.NONE.allowsNever()).isTrue();
    }

    @Test
    void aDefaultBeyondTheMaximumIsTheMaximum() {
        var rules = new GrantDurations(Optional.of(Duration.ofHours(8)), Optional.of(Duration.ofDays(7)));

        assertThat(rules.defaultDuration()).contains(Duration.ofHours(8));
    }

    @Test
    void readsBothForms() {
        assertThat(GrantDurations.parse("30d").value()).contains(Duration.ofDays(30));
        assertThat(GrantDurations.parse(" 8H ").value()).contains(Duration.ofHours(8));
        assertThat(GrantDurations.parse("90m").value()).contains(Duration.ofMinutes(90));
        assertThat(GrantDurations.parse("P7D").value()).contains(Duration.ofDays(7));
        assertThat(GrantDurations.parse("pt8h").value()).contains(Duration.ofHours(8));
        assertThat(GrantDurations.parse(null)).isEqualTo(new GrantDurations.Parsed(Optional.empty(), false));
        assertThat(GrantDurations.parse("  ")).isEqualTo(new GrantDurations.Parsed(Optional.empty(), false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a month", "30", "30 days", "P1M", "0d", "PT0S", "-P1D", "367d", "P400D", "forever", "never",
            "unlimited", "9999999d", "1w"})
    void aGarbledValueIsOneDayNeverUnlimited(String raw) {
        var parsed = GrantDurations.parse(raw);

        assertThat(parsed.garbled()).as(raw).isTrue();
        assertThat(parsed.orFallback()).as(raw).contains(Duration.ofDays(1));
        assertThat(GrantDurations.configured(raw, null).max()).as(raw).contains(Duration.ofDays(1));
        assertThat(GrantDurations.configured(raw, null).allowsNever()).as(raw).isFalse();
    }

    @Test
    void describesForPeople() {
        assertThat(GrantDurations.describe(Duration.ofDays(30))).isEqualTo("30 days");
        assertThat(GrantDurations.describe(Duration.ofDays(1))).isEqualTo("1 day");
        assertThat(GrantDurations.describe(Duration.ofHours(8))).isEqualTo("8 hours");
        assertThat(GrantDurations.describe(Duration.ofMinutes(90))).isEqualTo("90 minutes");
    }
}
