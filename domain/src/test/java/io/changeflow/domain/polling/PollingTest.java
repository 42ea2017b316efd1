package io.changeflow.domain.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PollingTest {

    private static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }

    /** While the pipeline runs, {@code polling} looks again {@code wait} after {@code attempt} attempts at {@code elapsed}. */
    private static void assertPollsAgainAfter(TieredPolling polling, int attempt, Duration elapsed, Duration wait) {
        assertThat(polling.next(PollObservation.RUNNING, attempt, elapsed)).isEqualTo(new PollDecision.PollAgain(wait));
    }

    @Nested
    class Tiered {

        /** 3 short waits of 5 s, then every 60 s, giving up after 30 minutes. */
        private final TieredPolling polling = new TieredPolling(seconds(5), 3, seconds(60), Duration.ofMinutes(30));

        @ParameterizedTest(name = "after attempt {0} at {1} s: again in {2} s")
        @CsvSource({"1, 0, 5", "2, 5, 5", "3, 10, 5", "4, 15, 60", "5, 75, 60", "100, 600, 60"})
        void waitsTheShortIntervalAfterEachOfTheFirstShortAttemptsLooksThenTheLongOne(int attempt, long elapsed, long wait) {
            assertPollsAgainAfter(polling, attempt, seconds(elapsed), seconds(wait));
        }

        @ParameterizedTest(name = "after attempt {0} at {1} s: again in {2} s")
        @CsvSource({"1, 0, 5", "2, 5, 60", "3, 65, 60"})
        void oneShortAttemptGivesExactlyOneShortWait(int attempt, long elapsed, long wait) {
            var once = new TieredPolling(seconds(5), 1, seconds(60), Duration.ofMinutes(30));
            assertPollsAgainAfter(once, attempt, seconds(elapsed), seconds(wait));
        }

        @Test
        void withoutShortAttemptsPollsAtTheLongIntervalFromTheStart() {
            var longOnly = new TieredPolling(seconds(5), 0, seconds(60), Duration.ofMinutes(30));
            assertPollsAgainAfter(longOnly, 1, seconds(0), seconds(60));
        }

        @Test
        void neverWaitsPastTheTimeout() {
            assertPollsAgainAfter(polling, 10, Duration.ofMinutes(30).minusSeconds(7), seconds(7));
            assertPollsAgainAfter(polling, 1, Duration.ofMinutes(30).minusSeconds(2), seconds(2));
            assertPollsAgainAfter(polling, 10, Duration.ofMinutes(29), seconds(60));
        }

        @Test
        void timesOutAtTheTimeoutAndAfterIt() {
            assertThat(polling.next(PollObservation.RUNNING, 40, Duration.ofMinutes(30)))
                    .isEqualTo(new PollDecision.Done(PollOutcome.TIMED_OUT));
            assertThat(polling.next(PollObservation.RUNNING, 40, Duration.ofHours(5)))
                    .isEqualTo(new PollDecision.Done(PollOutcome.TIMED_OUT));
        }

        @Test
        void passedAndFailedEndAtOnceEvenAfterTheTimeout() {
            for (var elapsed : new Duration[] {Duration.ZERO, Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofHours(2)}) {
                assertThat(polling.next(PollObservation.PASSED, 1, elapsed)).isEqualTo(new PollDecision.Done(PollOutcome.PASSED));
                assertThat(polling.next(PollObservation.FAILED, 1, elapsed)).isEqualTo(new PollDecision.Done(PollOutcome.FAILED));
            }
        }

        @Test
        void aPipelineThatNeverFinishesTimesOutExactlyAtTheTimeout() {
            var elapsed = Duration.ZERO;
            var delays = new ArrayList<Duration>();
            PollDecision decision;
            var attempt = 0;
            while ((decision = polling.next(PollObservation.RUNNING, ++attempt, elapsed)) instanceof PollDecision.PollAgain again) {
                delays.add(again.delay());
                elapsed = elapsed.plus(again.delay());
            }
            assertThat(decision).isEqualTo(new PollDecision.Done(PollOutcome.TIMED_OUT));
            assertThat(elapsed).isEqualTo(Duration.ofMinutes(30));
            // 3 short delays (15 s), 29 long ones (1740 s), then the 45 s left; the 34th look times out
            assertThat(delays).hasSize(33).startsWith(seconds(5), seconds(5), seconds(5), seconds(60))
                    .endsWith(seconds(60), seconds(45));
            assertThat(delays.stream().filter(seconds(5)::equals)).hasSize(3);
            assertThat(attempt).isEqualTo(34);
        }

        @Test
        void rejectsNegativeSettings() {
            assertThatThrownBy(() -> new TieredPolling(seconds(-1), 3, seconds(60), seconds(600))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TieredPolling(seconds(5), -1, seconds(60), seconds(600))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TieredPolling(seconds(5), 3, seconds(-60), seconds(600))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TieredPolling(seconds(5), 3, seconds(60), seconds(-600))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TieredPolling(null, 3, seconds(60), seconds(600))).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class Backoff {

        private final ExponentialBackoff backoff = new ExponentialBackoff(Duration.ofMillis(500), seconds(30));

        @Test
        void doublesFromTheBase() {
            assertThat(backoff.delayBefore(1)).isEqualTo(Duration.ofMillis(500));
            assertThat(backoff.delayBefore(2)).isEqualTo(seconds(1));
            assertThat(backoff.delayBefore(3)).isEqualTo(seconds(2));
            assertThat(backoff.delayBefore(4)).isEqualTo(seconds(4));
            assertThat(backoff.delayBefore(6)).isEqualTo(seconds(16));
        }

        @Test
        void neverExceedsTheCap() {
            assertThat(backoff.delayBefore(7)).isEqualTo(seconds(30));
            assertThat(backoff.delayBefore(31)).isEqualTo(seconds(30));
            assertThat(backoff.delayBefore(64)).isEqualTo(seconds(30));
            assertThat(backoff.delayBefore(Integer.MAX_VALUE)).isEqualTo(seconds(30));
        }

        @Test
        void reachesTheCapExactlyWhenADoublingLandsOnIt() {
            var exact = new ExponentialBackoff(seconds(1), seconds(64));
            assertThat(exact.delayBefore(7)).isEqualTo(seconds(64));
            assertThat(exact.delayBefore(8)).isEqualTo(seconds(64));
        }

        @Test
        void keepsDoublingPastTheOldShiftCapUntilTheMax() {
            var wide = new ExponentialBackoff(Duration.ofMillis(1), Duration.ofDays(30));
            assertThat(wide.delayBefore(31)).isEqualTo(Duration.ofMillis(1L << 30)); // about 12.4 days
            assertThat(wide.delayBefore(32)).isEqualTo(Duration.ofMillis(1L << 31)); // about 24.9 days, was stuck at 2^30
            assertThat(wide.delayBefore(33)).isEqualTo(Duration.ofDays(30));
            assertThat(wide.delayBefore(1000)).isEqualTo(Duration.ofDays(30));
            assertThat(wide.delayBefore(Integer.MAX_VALUE)).isEqualTo(Duration.ofDays(30));
        }

        @Test
        void doublesSubMillisecondBasesExactly() {
            var fine = new ExponentialBackoff(Duration.ofNanos(1), Duration.ofDays(1));
            assertThat(fine.delayBefore(1)).isEqualTo(Duration.ofNanos(1));
            assertThat(fine.delayBefore(11)).isEqualTo(Duration.ofNanos(1024));
            assertThat(fine.delayBefore(47)).isEqualTo(Duration.ofNanos(1L << 46));
            assertThat(fine.delayBefore(48)).isEqualTo(Duration.ofDays(1));
            assertThat(new ExponentialBackoff(Duration.ofNanos(1_500_000), Duration.ofSeconds(1)).delayBefore(3))
                    .isEqualTo(Duration.ofMillis(6));
        }

        @Test
        void zeroBaseMeansNoDelay() {
            var none = new ExponentialBackoff(Duration.ZERO, seconds(30));
            assertThat(none.delayBefore(1)).isZero();
            assertThat(none.delayBefore(1000)).isZero();
        }

        @Test
        void capBelowTheBaseWins() {
            assertThat(new ExponentialBackoff(seconds(10), seconds(1)).delayBefore(1)).isEqualTo(seconds(1));
        }

        @Test
        void retryNumbersStartAtOne() {
            assertThatThrownBy(() -> backoff.delayBefore(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> backoff.delayBefore(-1)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void rejectsNegativeDurations() {
            assertThatThrownBy(() -> new ExponentialBackoff(seconds(-1), seconds(1))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new ExponentialBackoff(seconds(1), seconds(-1))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new ExponentialBackoff(null, seconds(1))).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class Retries {

        private final RetryPolicy policy = new RetryPolicy(3, new ExponentialBackoff(Duration.ofMillis(200), seconds(10)));

        @Test
        void givesExactlyMaxRetriesDelaysThenGivesUp() {
            assertThat(policy.afterFailure(1)).contains(Duration.ofMillis(200));
            assertThat(policy.afterFailure(2)).contains(Duration.ofMillis(400));
            assertThat(policy.afterFailure(3)).contains(Duration.ofMillis(800));
            assertThat(policy.afterFailure(4)).isEmpty();
            assertThat(policy.afterFailure(100)).isEmpty();
        }

        @Test
        void zeroRetriesGivesUpAfterTheFirstFailure() {
            var none = new RetryPolicy(0, new ExponentialBackoff(Duration.ofMillis(200), seconds(10)));
            assertThat(none.afterFailure(1)).isEqualTo(Optional.empty());
        }

        @Test
        void rejectsNegativeRetries() {
            assertThatThrownBy(() -> new RetryPolicy(-1, new ExponentialBackoff(Duration.ZERO, Duration.ZERO)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
