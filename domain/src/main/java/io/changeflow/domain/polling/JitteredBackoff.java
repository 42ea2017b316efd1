package io.changeflow.domain.polling;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Objects;

/**
 * An {@link ExponentialBackoff} with jitter, so that callers refused at the same moment (e.g. every merge request GitLab
 * re-checks after one merge) do not all come back together: the delay before retry n is drawn from
 * {@code [d * (1 - spread), d]}, {@code d = backoff.delayBefore(n)} (0.5 is "equal jitter", 0 none, 1 "full jitter").
 * The random part comes in as a number, so the rule is deterministic and the caller chooses the source.
 *
 * @param backoff the exponential delays jitter is taken off
 * @param spread  the share of each delay that is random, in {@code [0, 1]}
 */
public record JitteredBackoff(ExponentialBackoff backoff, double spread) {

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    public JitteredBackoff {
        Objects.requireNonNull(backoff, "backoff");
        if (!(spread >= 0 && spread <= 1)) {
            throw new IllegalArgumentException("the jitter spread is a share between 0 and 1: " + spread);
        }
    }

    /** No jitter: exactly the exponential delays. */
    public static JitteredBackoff none(ExponentialBackoff backoff) {
        return new JitteredBackoff(backoff, 0);
    }

    /**
     * The delay before retry {@code retry} (1-based) for one draw of the random source.
     *
     * @param fraction a uniformly distributed number in {@code [0, 1)} (values outside are clamped): 0 gives
     *                 the shortest delay of the range, values towards 1 the full exponential delay
     */
    public Duration delayBefore(int retry, double fraction) {
        var full = backoff.delayBefore(retry);
        if (spread == 0 || full.isZero()) {
            return full;
        }
        var clamped = Double.isNaN(fraction) ? 0 : Math.min(1, Math.max(0, fraction));
        // full * (1 - spread + spread * fraction), exactly on nanoseconds (no overflow, no drift), rounded up so
        // the delay never falls below the range; it cannot exceed full, a whole number of nanoseconds
        var factor = BigDecimal.ONE.subtract(BigDecimal.valueOf(spread))
                .add(BigDecimal.valueOf(spread).multiply(BigDecimal.valueOf(clamped)));
        var nanos = new BigDecimal(full.getSeconds()).movePointRight(9).add(BigDecimal.valueOf(full.getNano()))
                .multiply(factor).setScale(0, RoundingMode.CEILING).toBigIntegerExact()
                .divideAndRemainder(NANOS_PER_SECOND);
        return Duration.ofSeconds(nanos[0].longValueExact(), nanos[1].longValueExact());
    }

    /** The shortest delay retry {@code retry} can get. */
    public Duration shortestBefore(int retry) {
        return delayBefore(retry, 0);
    }
}
