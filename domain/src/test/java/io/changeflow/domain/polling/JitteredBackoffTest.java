package io.changeflow.domain.polling;

import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class JitteredBackoffTest {

    private static final ExponentialBackoff TEN_SECONDS_UP_TO_TWO_MINUTES =
            new ExponentialBackoff(Duration.ofSeconds(10), Duration.ofMinutes(2));

    @Test
    void equalJitterKeepsAtLeastHalfOfEachExponentialDelay() {
        var backoff = new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, 0.5);

        assertThat(backoff.delayBefore(1, 0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(backoff.delayBefore(1, 0.5)).isEqualTo(Duration.ofMillis(7_500));
        assertThat(backoff.delayBefore(2, 0)).isEqualTo(Duration.ofSeconds(10));
        assertThat(backoff.delayBefore(2, 0.999_999)).isBetween(Duration.ofMillis(19_999), Duration.ofSeconds(20));
        assertThat(backoff.delayBefore(10, 0)).isEqualTo(Duration.ofMinutes(1));
        assertThat(backoff.shortestBefore(3)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void withoutSpreadItIsTheExponentialBackoff() {
        var none = JitteredBackoff.none(TEN_SECONDS_UP_TO_TWO_MINUTES);
        for (var retry = 1; retry <= 8; retry++) {
            assertThat(none.delayBefore(retry, 0.37)).isEqualTo(TEN_SECONDS_UP_TO_TWO_MINUTES.delayBefore(retry));
        }
    }

    @Test
    void fractionsOutsideTheUnitRangeAreClamped() {
        var backoff = new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, 1);

        assertThat(backoff.delayBefore(1, -3)).isEqualTo(Duration.ZERO);
        assertThat(backoff.delayBefore(1, Double.NaN)).isEqualTo(Duration.ZERO);
        assertThat(backoff.delayBefore(1, 7)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void refusesASpreadOutsideZeroToOne() {
        assertThatThrownBy(() -> new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, -0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void callersRefusedTogetherComeBackSpreadOut() {
        var backoff = new JitteredBackoff(TEN_SECONDS_UP_TO_TWO_MINUTES, 0.5);
        var random = new SplittableRandom(42);
        var distinct = new HashSet<Duration>();
        for (var caller = 0; caller < 12; caller++) {
            distinct.add(backoff.delayBefore(1, random.nextDouble()));
        }
        assertThat(distinct).hasSizeGreaterThan(10);
    }

    record Case(long baseMillis, long maxMillis, int spreadPercent, int retry, double fraction) {}

    private static Generator<Case> cases() {
        return source -> new Case(longs(0, 600_000).generate(source), longs(0, 86_400_000).generate(source),
                ints(0, 100).generate(source), ints(1, 200).generate(source), ints(0, 1_000_000).generate(source) / 1_000_000.0);
    }

    @Test
    void everyDelayLiesInItsRangeAndGrowsWithTheFraction() {
        Property.forAll(cases()).tries(2_000).check(c -> {
            var exponential = new ExponentialBackoff(Duration.ofMillis(c.baseMillis()), Duration.ofMillis(c.maxMillis()));
            var spread = c.spreadPercent() / 100.0;
            var backoff = new JitteredBackoff(exponential, spread);
            var full = exponential.delayBefore(c.retry());
            var delay = backoff.delayBefore(c.retry(), c.fraction());
            var lowest = new BigDecimal(full.toNanos()).multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(spread)));

            assertThat(delay).isLessThanOrEqualTo(full);
            assertThat(new BigDecimal(delay.toNanos())).isGreaterThanOrEqualTo(lowest);
            assertThat(backoff.delayBefore(c.retry(), Math.min(1, c.fraction() + 0.1))).isGreaterThanOrEqualTo(delay);
        });
    }
}
