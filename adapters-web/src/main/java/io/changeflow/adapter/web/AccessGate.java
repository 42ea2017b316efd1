package io.changeflow.adapter.web;

import io.changeflow.application.settings.Settings;
import java.time.Clock;

/**
 * The access-mode check of the submit endpoint: {@link Settings#accessOpen} at the clock's now, else
 * 403 SERVICE_CLOSED. Fails closed: a missing mode means TEST_WINDOW, an unknown one CLOSED, a
 * missing or invalid window or zone a closed window, and any unexpected exception closed too.
 */
final class AccessGate {

    private final Settings settings;
    private final Clock clock;

    AccessGate(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    boolean isOpen() {
        try {
            return settings.accessOpen(clock.instant());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Throws SERVICE_CLOSED (403) unless submissions are open now. */
    void requireOpen() {
        if (!isOpen()) {
            throw ApiException.of(ErrorCode.SERVICE_CLOSED, "access mode " + settings.accessMode().value()
                    + ", window " + settings.testWindow().value());
        }
    }
}
