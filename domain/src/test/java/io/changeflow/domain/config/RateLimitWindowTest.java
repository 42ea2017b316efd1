package io.changeflow.domain.config;

import static io.changeflow.domain.config.ResolvedAssertions.assertResolved;
import static io.changeflow.domain.config.ResolvedAssertions.raw;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitWindowTest {

    private static Resolved<Duration> resolve(String raw) {
        return RateLimitWindow.resolve(raw(raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\n"})
    void blankGivesTheDefaultOf60Seconds(String raw) {
        assertResolved(resolve(raw), Duration.ofSeconds(60), "missing: default 60");
    }

    @Test
    void missingGivesTheDefaultOf60Seconds() {
        var resolved = resolve(null);
        assertThat(resolved.value()).isEqualTo(Duration.ofSeconds(RateLimitWindow.DEFAULT_SECONDS));
        assertThat(resolved.raw()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"1,1", "30,30", "' 90 ',90", "+45,45", "0600,600", "3600,3600"})
    void readsWholeSecondsUpToTheCap(String raw, long seconds) {
        assertResolved(resolve(raw), Duration.ofSeconds(seconds), "configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "-60", "00", "-0", "-99999999999999999999"})
    void notPositiveGivesTheDefault(String raw) {
        assertResolved(resolve(raw), Duration.ofSeconds(60), "not positive: default 60");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3601", "86400", "2147483648", "9223372036854775808", "99999999999999999999"})
    void aboveTheCapIsCappedAtOneHour(String raw) {
        assertResolved(resolve(raw), Duration.ofHours(1), "above the cap: 3600");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1m", "60s", "1.5", "1e2", "sixty", "0x3c", "--1", "+-1", "1_000", "٦٠", "６０", "60\u0000",
            "\u000060", "\u001c60", "60\u001f", "6 0", "PT60S"})
    void unparsableGivesTheDefault(String raw) {
        assertResolved(resolve(raw), Duration.ofSeconds(60), "unparsable: default 60");
    }
}
