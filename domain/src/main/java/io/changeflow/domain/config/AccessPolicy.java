package io.changeflow.domain.config;

import java.time.Instant;

/** Decides whether submissions are accepted now. */
public final class AccessPolicy {

    private AccessPolicy() {
    }

    /** OPEN: yes. CLOSED: no. TEST_WINDOW: only inside the window (a closed window: no). */
    public static boolean isOpen(AccessMode mode, TestWindow window, Instant now) {
        return switch (mode) {
            case OPEN -> true;
            case CLOSED -> false;
            case TEST_WINDOW -> window.contains(now);
        };
    }
}
