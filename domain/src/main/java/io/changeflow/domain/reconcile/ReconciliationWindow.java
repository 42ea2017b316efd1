package io.changeflow.domain.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The sliding window of merged records a reconciliation run looks at: last modified between
 * {@code now - maxAge} and {@code now - minAge}. Newer ones may simply have their callback on the
 * way ({@code minAge} keeps "late" from being taken for "lost"); older ones fall out of the window,
 * which bounds the work per run.
 */
public record ReconciliationWindow(Duration minAge, Duration maxAge) {

    public ReconciliationWindow {
        Objects.requireNonNull(minAge, "minAge");
        Objects.requireNonNull(maxAge, "maxAge");
        if (minAge.isNegative() || maxAge.compareTo(minAge) <= 0) {
            throw new IllegalArgumentException("need 0 <= minAge < maxAge, got " + minAge + " and " + maxAge);
        }
    }

    /** Records modified before this instant are old enough to reconcile. */
    public Instant newest(Instant now) {
        return now.minus(minAge);
    }

    /** Records modified before this instant are out of the window. */
    public Instant oldest(Instant now) {
        return now.minus(maxAge);
    }

    public boolean contains(Instant updatedAt, Instant now) {
        return updatedAt.isAfter(oldest(now)) && updatedAt.isBefore(newest(now));
    }
}
