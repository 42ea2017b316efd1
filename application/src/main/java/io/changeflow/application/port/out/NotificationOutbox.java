package io.changeflow.application.port.out;

import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The notifications' outbox (issue 32, docs/notifications.md): which status changes were committed (read from the
 * append-only binding history, written in the same transaction as the change), and the messages to send, one row per
 * dedup key: enqueuing a key again (another instance, a retry, a rescan) is a no-op, so each message is sent once.
 */
public interface NotificationOutbox {

    /**
     * A committed status change of a subject-target row.
     *
     * @param position the history row's position; later changes have larger positions
     * @param opened   true for the row that opened the request (the request was accepted)
     * @param settled  true when the change is older than the settle time asked for: every change before it has
     *                 committed too, so a scan may continue after it
     */
    record StatusChange(long position, OperationId operationId, BindingStatus status, boolean opened, boolean settled) {
        public StatusChange {
            Objects.requireNonNull(operationId, "operationId");
            Objects.requireNonNull(status, "status");
        }
    }

    /**
     * The status changes after {@code position} into one of {@code statuses} (and every opening), oldest first, at
     * most {@code limit}; {@link StatusChange#settled()} by the database clock minus {@code settle}.
     */
    List<StatusChange> changesAfter(long position, Set<BindingStatus> statuses, Duration settle, int limit);

    /** The position of the newest change now (0 when there is none): where a first scan starts. */
    long latestPosition();

    /** A message to enqueue under its dedup key (at most 255 characters). */
    record Queued(String key, Message message) {
        public Queued {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(message, "message");
            if (key.isBlank() || key.length() > 255) {
                throw new IllegalArgumentException("a notification key is 1 to 255 characters");
            }
        }
    }

    /** Enqueues each message whose key is new, due now; keys already queued (sent or not) are left untouched. @return how many were new */
    int enqueue(List<Queued> messages);

    /** A queued message not yet sent. */
    record Pending(long id, String key, Message message, int attempts) {}

    /** Unsent messages due at or before {@code now} that have not used up {@code maxAttempts}, oldest first, at most {@code limit}. */
    List<Pending> due(Instant now, int maxAttempts, int limit);

    /**
     * Marks {@code id} sent, if it was not yet. @return false when it was already marked sent (another instance sent it
     * at the same time; at-least-once across instances then, at-most-once otherwise)
     */
    boolean sent(long id, Instant at);

    /** Records a failed attempt: one more attempt counted, next try at {@code retryAt}. */
    void failed(long id, Instant retryAt, String error);

    /** Where a queued message stands, for the operators (issue 32). */
    enum State {
        /** Not sent yet and never tried and failed: the sending job takes it when it is due. */
        PENDING,
        /** Not sent yet; at least one attempt failed and the job tries again at its next attempt. */
        RETRYING,
        /** Not sent and no longer tried: its attempts are used up; a person decides (docs/operations.md). */
        GAVE_UP,
        /** Delivered to the mail server or the webhook. */
        SENT;

        /** The state of a message with these facts, when {@code maxAttempts} attempts are all a message gets. */
        public static State of(boolean sent, int attempts, int maxAttempts) {
            if (sent) {
                return SENT;
            }
            if (attempts >= maxAttempts) {
                return GAVE_UP;
            }
            return attempts == 0 ? PENDING : RETRYING;
        }
    }

    /**
     * What the operators' list asks: the messages in {@code state} (every message when empty), whose id is below
     * {@code before} (no bound when empty: the newest), at most {@code limit}; {@code maxAttempts} tells a message that
     * gave up from one still retried.
     */
    record Query(Optional<State> state, OptionalLong before, int maxAttempts, int limit) {
        public Query {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(before, "before");
        }
    }

    /** A queued message as the operators see it; {@code lastError} as recorded (the caller removes what must not be shown). */
    record Listed(long id, String key, Message message, int attempts, Instant nextAttempt, Optional<String> lastError,
                  Optional<Instant> sentAt, Instant queuedAt) {
        public Listed {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(nextAttempt, "nextAttempt");
            Objects.requireNonNull(lastError, "lastError");
            Objects.requireNonNull(sentAt, "sentAt");
            Objects.requireNonNull(queuedAt, "queuedAt");
        }
    }

    /** The messages the query asks for, newest (highest id) first. One query. */
    List<Listed> list(Query query);

    /**
     * How many messages are not sent, per state ({@link State#PENDING}, {@link State#RETRYING}, {@link State#GAVE_UP};
     * a state without messages may be absent). One aggregate query over the unsent rows.
     */
    Map<State, Long> countUnsent(int maxAttempts);

    /** The longest a scan waits before a change counts as settled (transactions end well before). */
    Duration DEFAULT_SETTLE = Duration.ofSeconds(30);
}
