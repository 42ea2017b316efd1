package io.changeflow.application.notify;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.State;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many notifications are not sent, per state ({@link State#PENDING}, {@link State#RETRYING},
 * {@link State#GAVE_UP}, each present, 0 when none): what the notification gauges read (issue 32). One aggregate query.
 */
public final class CountUnsentNotifications {

    private final NotificationOutbox outbox;

    public CountUnsentNotifications(NotificationOutbox outbox) {
        this.outbox = outbox;
    }

    public Map<State, Long> unsent() {
        var counts = new EnumMap<State, Long>(State.class);
        for (var state : State.values()) {
            if (state != State.SENT) {
                counts.put(state, 0L);
            }
        }
        outbox.countUnsent(SendNotifications.MAX_ATTEMPTS).forEach((state, n) -> {
            if (state != State.SENT) {
                counts.put(state, n);
            }
        });
        return counts;
    }
}
