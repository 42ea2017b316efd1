package io.changeflow.application.notify;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Listed;
import io.changeflow.application.port.out.NotificationOutbox.State;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The operators' view of the notifications' outbox (issue 32, docs/notifications.md): the queued messages, newest first,
 * narrowed to one {@link State} when asked, a page at a time (the next page continues below the last id shown). Each
 * says its state, attempts, next attempt and last error, the error without secrets ({@link ErrorTexts}). One query a
 * page.
 */
public final class ListNotifications {

    /** The most messages one page holds. */
    public static final int MAX_LIMIT = 500;

    /** {@code before}: the page below this id (the {@link Page#nextBefore()} of the page before); empty: the newest. */
    public record Command(Optional<State> state, OptionalLong before, int limit) {
        public Command {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(before, "before");
        }
    }

    /** One message as the operators see it; {@code lastError} has no secrets. */
    public record Entry(Listed message, State state, Optional<String> lastError) {}

    /** A page, and where the next one starts (empty on the last page). */
    public record Page(List<Entry> entries, OptionalLong nextBefore) {}

    private final NotificationOutbox outbox;
    private final int maxAttempts;

    public ListNotifications(NotificationOutbox outbox) {
        this(outbox, SendNotifications.MAX_ATTEMPTS);
    }

    ListNotifications(NotificationOutbox outbox, int maxAttempts) {
        this.outbox = outbox;
        this.maxAttempts = maxAttempts;
    }

    public Page list(Command command) {
        var limit = Math.clamp(command.limit(), 1, MAX_LIMIT);
        var rows = outbox.list(new NotificationOutbox.Query(command.state(), command.before(), maxAttempts, limit + 1));
        var shown = rows.size() > limit ? rows.subList(0, limit) : rows;
        var entries = shown.stream().map(m -> new Entry(m, State.of(m.sentAt().isPresent(), m.attempts(), maxAttempts),
                m.lastError().map(ErrorTexts::withoutSecrets))).toList();
        return new Page(entries, rows.size() > limit ? OptionalLong.of(shown.getLast().id()) : OptionalLong.empty());
    }
}
