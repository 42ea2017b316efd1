package io.changeflow.application.fake;

import io.changeflow.application.port.out.Notifications;
import java.util.ArrayList;
import java.util.List;

/** {@link Notifications} that keeps what it delivered; {@link #down} makes every send fail, as an unreachable server. */
public final class FakeNotifications implements Notifications {

    private final List<Message> delivered = new ArrayList<>();
    private boolean down;
    private int attempts;

    @Override
    public synchronized void send(Message message) {
        attempts++;
        if (down) {
            throw new NotificationFailedException("connection refused", null);
        }
        delivered.add(message);
    }

    public synchronized void down(boolean down) {
        this.down = down;
    }

    public synchronized List<Message> delivered() {
        return List.copyOf(delivered);
    }

    public synchronized int attempts() {
        return attempts;
    }
}
