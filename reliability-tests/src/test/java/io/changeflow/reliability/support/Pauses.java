package io.changeflow.reliability.support;

import java.time.Duration;

/** The suites' pauses between the steps of a run (traffic, operator actions, samples). */
public final class Pauses {

    private Pauses() {
    }

    /** Sleeps {@code pause}; an interrupt stops the run (the flag stays set). */
    public static void pause(Duration pause) {
        pause(pause.toMillis());
    }

    /** Sleeps {@code millis} milliseconds; an interrupt stops the run (the flag stays set). */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
