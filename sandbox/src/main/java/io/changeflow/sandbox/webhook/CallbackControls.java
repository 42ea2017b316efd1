package io.changeflow.sandbox.webhook;

import io.changeflow.sandbox.fault.Faults;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Decides how each outgoing callback of one simulated system is delivered. Explicit one-shot
 * controls (for tests and demos: "lose the next callback") win over the random fault settings of
 * the system ({@code duplicateRate}, {@code lateRate}/{@code lateMillis}, {@code lostCallbackRate}).
 */
public final class CallbackControls {

    private final Faults faults;
    private final String system;
    private int loseNext;
    private int duplicateNext;
    private final Deque<Duration> delayNext = new ArrayDeque<>();

    public CallbackControls(Faults faults, String system) {
        this.faults = faults;
        this.system = system;
    }

    /** The next {@code count} callbacks are never delivered. */
    public synchronized void loseNext(int count) {
        loseNext = requireNotNegative(count);
    }

    /** The next {@code count} callbacks are delivered twice. */
    public synchronized void duplicateNext(int count) {
        duplicateNext = requireNotNegative(count);
    }

    /** The next {@code count} callbacks are delivered {@code lateBy} later than normal. */
    public synchronized void delayNext(int count, Duration lateBy) {
        requireNotNegative(count);
        if (lateBy.isNegative()) {
            throw new IllegalArgumentException("lateBy must not be negative");
        }
        delayNext.clear();
        for (var i = 0; i < count; i++) {
            delayNext.add(lateBy);
        }
    }

    /** Drops every pending one-shot control. */
    public synchronized void reset() {
        loseNext = 0;
        duplicateNext = 0;
        delayNext.clear();
    }

    /** The plan of the next callback; consumes one-shot controls. */
    public DeliveryPlan next() {
        synchronized (this) {
            if (loseNext > 0) {
                loseNext--;
                return new DeliveryPlan(true, false, Duration.ZERO);
            }
            if (duplicateNext > 0 || !delayNext.isEmpty()) {
                var duplicate = duplicateNext > 0;
                if (duplicate) {
                    duplicateNext--;
                }
                var late = delayNext.isEmpty() ? Duration.ZERO : delayNext.poll();
                return new DeliveryPlan(false, duplicate, late);
            }
        }
        var settings = faults.settings(system);
        if (faults.chance(settings.lostCallbackRate())) {
            return new DeliveryPlan(true, false, Duration.ZERO);
        }
        var duplicate = faults.chance(settings.duplicateRate());
        var late = faults.chance(settings.lateRate()) ? Duration.ofMillis(settings.lateMillis()) : Duration.ZERO;
        return new DeliveryPlan(false, duplicate, late);
    }

    private static int requireNotNegative(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
        return count;
    }
}
