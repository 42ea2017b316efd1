package io.changeflow.adapter.web;

import java.time.Duration;

/** How a fake port hangs when a test tells it to. */
final class Hanging {

    private Hanging() {
    }

    /** Sleeps {@code delay} (nothing when zero); an interrupt ends the sleep and stays set. */
    static void sleep(Duration delay) {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
