package io.changeflow.application.notify;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.Notifications;
import io.changeflow.application.workflow.Emit;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;

/**
 * Issue 32, the recurring job that sends the queued messages (docs/notifications.md): each due message once; a
 * refused or unreachable server is retried with exponential backoff ({@link #FIRST_RETRY} doubling up to
 * {@link #LONGEST_RETRY}) up to {@link #MAX_ATTEMPTS} attempts, and counted; after a failure the run leaves the
 * channel's other messages for the next run. It never reads or writes the
 * workflow's state, so a failing or slow server changes no request's outcome.
 */
public final class SendNotifications {

    private static final System.Logger LOG = System.getLogger(SendNotifications.class.getName());
    public static final Duration FIRST_RETRY = Duration.ofSeconds(5);
    public static final Duration LONGEST_RETRY = Duration.ofMinutes(10);
    public static final int MAX_ATTEMPTS = 60;
    private static final int LIMIT = 100;

    /** What one run did. */
    public record Result(int sent, int failed) {}

    private final NotificationOutbox outbox;
    private final Notifications notifications;
    private final BusinessMetrics metrics;
    private final Clock clock;

    public SendNotifications(NotificationOutbox outbox, Notifications notifications, BusinessMetrics metrics, Clock clock) {
        this.outbox = outbox;
        this.notifications = notifications;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Result run() {
        int sent = 0;
        int failed = 0;
        // a channel that failed once is not tried again in this run: a slow server costs one timeout per run, not one per message
        var failing = java.util.EnumSet.noneOf(Notifications.Channel.class);
        for (var pending : outbox.due(clock.instant(), MAX_ATTEMPTS, LIMIT)) {
            if (failing.contains(pending.message().channel())) {
                continue;
            }
            var channel = pending.message().channel().name();
            try {
                notifications.send(pending.message());
            } catch (RuntimeException e) {
                failed++;
                failing.add(pending.message().channel());
                var error = ErrorTexts.withoutSecrets(String.valueOf(e.getMessage()));
                outbox.failed(pending.id(), clock.instant().plus(backoff(pending.attempts() + 1)), error);
                Emit.quietly("notification failed", () -> metrics.notificationFailed(channel));
                LOG.log(Level.WARNING, "notification " + pending.key() + " not sent (attempt " + (pending.attempts() + 1)
                        + "); retried later: " + error);
                continue;
            }
            outbox.sent(pending.id(), clock.instant());
            sent++;
            Emit.quietly("notification sent", () -> metrics.notificationSent(channel));
        }
        return new Result(sent, failed);
    }

    /** The pause after the {@code attempts}-th failed attempt: 5 s, 10 s, 20 s, ... at most 10 minutes. */
    static Duration backoff(int attempts) {
        var shift = Math.min(Math.max(attempts - 1, 0), 20);
        var pause = FIRST_RETRY.multipliedBy(1L << shift);
        return pause.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : pause;
    }
}
