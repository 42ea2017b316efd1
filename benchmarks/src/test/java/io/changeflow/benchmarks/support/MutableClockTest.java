package io.changeflow.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MutableClockTest {

    @Test
    void movesOnlyWhenTold() {
        var start = Instant.parse("2026-01-01T00:00:00.123456789Z");
        var clock = new MutableClock(start);
        assertThat(clock.instant()).isEqualTo(start);
        assertThat(clock.millis()).isEqualTo(start.toEpochMilli());
        clock.advance(Duration.ofSeconds(61));
        assertThat(clock.instant()).isEqualTo(start.plusSeconds(61));
        clock.advanceNanos(1);
        assertThat(clock.asTimeMeter().currentTimeNanos()).isEqualTo(clock.nanos());
        assertThat(clock.asTimeMeter().isWallClockBased()).isFalse();
    }
}
