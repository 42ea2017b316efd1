package io.changeflow.domain.polling;

import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.oneOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PollingProperties {

    private static final long THIRTY_DAYS_MILLIS = Duration.ofDays(30).toMillis();

    /** The documented formula, computed exactly: min(base * 2^(n-1), max), in nanoseconds. */
    private static Duration formula(Duration base, Duration max, int retry) {
        var exact = BigInteger.valueOf(base.toNanos()).shiftLeft(retry - 1);
        return Duration.ofNanos(exact.min(BigInteger.valueOf(max.toNanos())).longValueExact());
    }

    record Backoff(Duration base, Duration max) {}

    /**
     * Bases and caps: the everyday range (base up to a minute, cap up to a day), large cap/base
     * ratios (base 1 ms to 1 s, cap up to 30 days: more than 2^31 times the base) and sub-millisecond
     * bases in nanoseconds.
     */
    private static Generator<Backoff> backoffs() {
        var everyday = longs(0, 60_000).zip(longs(0, 86_400_000),
                (base, max) -> new Backoff(Duration.ofMillis(base), Duration.ofMillis(max)));
        var largeRatio = longs(1, 1_000).zip(longs(THIRTY_DAYS_MILLIS / 2, THIRTY_DAYS_MILLIS),
                (base, max) -> new Backoff(Duration.ofMillis(base), Duration.ofMillis(max)));
        var nanos = longs(0, 1_000_000).zip(longs(0, Duration.ofDays(30).toNanos()),
                (base, max) -> new Backoff(Duration.ofNanos(base), Duration.ofNanos(max)));
        return oneOf(everyday, largeRatio, nanos);
    }

    @Test
    void backoffFollowsTheFormulaWithoutOverflowForRetriesOneToAThousand() {
        Property.forAll(backoffs()).tries(300).check(b -> {
            var backoff = new ExponentialBackoff(b.base(), b.max());
            var previous = Duration.ZERO;
            for (var retry = 1; retry <= 1000; retry++) {
                var delay = backoff.delayBefore(retry);
                var expected = formula(b.base(), b.max(), retry);
                // AssertJ only on a mismatch: 300,000 delays are checked
                if (!delay.equals(expected) || delay.isNegative() || delay.compareTo(b.max()) > 0 || delay.compareTo(previous) < 0) {
                    assertThat(delay).as("retry %d", retry).isEqualTo(expected);
                    assertThat(delay.isNegative()).as("retry %d", retry).isFalse();
                    assertThat(delay).as("retry %d", retry).isLessThanOrEqualTo(b.max()).isGreaterThanOrEqualTo(previous);
                }
                previous = delay;
            }
        });
    }

    /** Base 1 ms, cap 30 days: doubling goes past the old 2^30 shift cap (about 12.4 days) up to the cap. */
    @Test
    void backoffFromOneMillisecondReachesAThirtyDayCapExactly() {
        Property.forAll(ints(1, 1000)).tries(300).check(retry -> {
            var delay = new ExponentialBackoff(Duration.ofMillis(1), Duration.ofDays(30)).delayBefore(retry);
            var expected = retry <= 32 ? Duration.ofMillis(1L << (retry - 1)) : Duration.ofDays(30);
            assertThat(delay).as("retry %d", retry).isEqualTo(expected);
        });
    }

    record Retries(int maxRetries, long baseMillis) {}

    @Test
    void retryPolicyGivesExactlyMaxRetriesDelays() {
        Property.forAll(ints(0, 20).zip(longs(0, 10_000), Retries::new)).tries(300).check(r -> {
            var max = Duration.ofMinutes(5);
            var policy = new RetryPolicy(r.maxRetries(), new ExponentialBackoff(Duration.ofMillis(r.baseMillis()), max));
            var delays = 0;
            for (var failed = 1; failed <= 50; failed++) {
                var delay = policy.afterFailure(failed);
                if (delay.isPresent()) {
                    assertThat(failed).isLessThanOrEqualTo(r.maxRetries());
                    assertThat(delay.get()).isEqualTo(formula(Duration.ofMillis(r.baseMillis()), max, failed));
                    delays++;
                } else {
                    assertThat(failed).isGreaterThan(r.maxRetries());
                }
            }
            assertThat(delays).isEqualTo(r.maxRetries());
        });
    }

    record Polling(long shortSeconds, int shortAttempts, long longSeconds, long timeoutSeconds) {}

    private static Generator<Polling> pollings() {
        return s -> new Polling(longs(1, 30).generate(s), ints(0, 10).generate(s), longs(1, 600).generate(s),
                longs(0, 7_200).generate(s));
    }

    /**
     * Look n (1-based) waits the short interval while n <= shortAttempts, the long one after, never
     * past the timeout; the first look at or after the timeout ends TIMED_OUT, exactly at it.
     */
    @Test
    void pollingThatNeverFinishesEndsTimedOutExactlyAtTheTimeout() {
        Property.forAll(pollings()).tries(500).check(p -> {
            var timeout = Duration.ofSeconds(p.timeoutSeconds());
            var polling = new TieredPolling(Duration.ofSeconds(p.shortSeconds()), p.shortAttempts(),
                    Duration.ofSeconds(p.longSeconds()), timeout);
            var elapsed = Duration.ZERO;
            var attempt = 0;
            var shortWaits = 0;
            PollDecision decision;
            while ((decision = polling.next(PollObservation.RUNNING, ++attempt, elapsed)) instanceof PollDecision.PollAgain again) {
                var interval = Duration.ofSeconds(attempt <= p.shortAttempts() ? p.shortSeconds() : p.longSeconds());
                var remaining = timeout.minus(elapsed);
                assertThat(again.delay()).as("wait %d", attempt).isPositive()
                        .isEqualTo(interval.compareTo(remaining) < 0 ? interval : remaining);
                shortWaits += attempt <= p.shortAttempts() ? 1 : 0;
                elapsed = elapsed.plus(again.delay());
                assertThat(elapsed).isLessThanOrEqualTo(timeout);
            }
            assertThat(decision).isEqualTo(new PollDecision.Done(PollOutcome.TIMED_OUT));
            assertThat(elapsed).isEqualTo(timeout);
            assertThat(shortWaits).isEqualTo(Math.min(p.shortAttempts(), attempt - 1));
        });
    }
}
