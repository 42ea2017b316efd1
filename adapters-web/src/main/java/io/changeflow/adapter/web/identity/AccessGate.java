package io.changeflow.adapter.web.identity;

import io.changeflow.application.settings.Settings;
import java.time.Clock;

/**
 * Whether submissions are open right now ({@link Settings#accessOpen} at the clock's now), as
 * {@code GET /api/me} tells the SPA. The submit endpoint itself leaves the decision to
 * {@code SubmitChangeRequest}, which checks access after the idempotency key so that a retry of an
 * accepted request still replays its answer after access closed. Fails closed: a missing mode means
 * TEST_WINDOW, an unknown one CLOSED, a missing or invalid window or zone a closed window, and any
 * unexpected exception closed too.
 */
public final class AccessGate {

    private final Settings settings;
    private final Clock clock;

    public AccessGate(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public boolean isOpen() {
        try {
            return settings.accessOpen(clock.instant());
        } catch (RuntimeException e) {
            return false;
        }
    }
}
