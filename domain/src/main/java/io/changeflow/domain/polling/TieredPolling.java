package io.changeflow.domain.polling;

import java.time.Duration;
import java.util.Objects;

/**
 * Tiered polling: the first {@code shortAttempts} waits are short, later ones long,
 * and a timeout after which the outcome is {@link PollOutcome#TIMED_OUT} (unknown, not failed).
 * The caller reschedules itself with the returned delay instead of sleeping.
 */
public record TieredPolling(Duration shortInterval, int shortAttempts, Duration longInterval, Duration timeout) {

    public TieredPolling {
        Objects.requireNonNull(shortInterval, "shortInterval");
        Objects.requireNonNull(longInterval, "longInterval");
        Objects.requireNonNull(timeout, "timeout");
        if (shortInterval.isNegative() || longInterval.isNegative() || shortAttempts < 0 || timeout.isNegative()) {
            throw new IllegalArgumentException("polling intervals, attempts and timeout must not be negative");
        }
    }

    /**
     * @param observed      what this look saw
     * @param attemptsSoFar looks made so far, including this one (1 for the first)
     * @param elapsed       time since waiting started
     */
    public PollDecision next(PollObservation observed, int attemptsSoFar, Duration elapsed) {
        return switch (observed) {
            case PASSED -> new PollDecision.Done(PollOutcome.PASSED);
            case FAILED -> new PollDecision.Done(PollOutcome.FAILED);
            case RUNNING -> {
                if (elapsed.compareTo(timeout) >= 0) {
                    yield new PollDecision.Done(PollOutcome.TIMED_OUT);
                }
                var interval = attemptsSoFar <= shortAttempts ? shortInterval : longInterval;
                var remaining = timeout.minus(elapsed);
                yield new PollDecision.PollAgain(interval.compareTo(remaining) > 0 ? remaining : interval);
            }
        };
    }
}
