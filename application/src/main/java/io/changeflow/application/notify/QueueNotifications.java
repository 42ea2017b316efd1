package io.changeflow.application.notify;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.NotificationOutbox.StatusChange;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Issue 32, the recurring job that turns committed status changes into queued messages (docs/notifications.md): it
 * reads the binding history after its cursor and enqueues, under a key per (operation, event, channel, recipient),
 * an e-mail to the requester and to the subject, a message to the requests webhook, and for the deadline and
 * failure states one to the operators' webhook. The approvers get nothing (the approval system tells them). It only
 * reads the workflow's state and writes the outbox; a rescan enqueues nothing twice.
 */
public final class QueueNotifications {

    /** The scan's name in {@link ScanCursors}. */
    public static final String SCAN = "notifications";
    /** The webhook of request events. */
    public static final String REQUESTS = "requests";
    /** The webhook of the operators: deadline and failure states. */
    public static final String OPERATORS = "operators";
    static final Set<BindingStatus> ANNOUNCED = Set.copyOf(EnumSet.of(BindingStatus.VALIDATED, BindingStatus.REJECTED,
            BindingStatus.CLOSED, BindingStatus.EXPIRED, BindingStatus.REVOKED, BindingStatus.APPROVAL_FAILED,
            BindingStatus.CREATE_FAILED, BindingStatus.HANDLE_FAILED, BindingStatus.DEPLOY_FAILED,
            BindingStatus.DEPLOY_UNCONFIRMED));
    private static final int LIMIT = 200;
    private static final String SYSTEM = "system";

    /** What one run did. */
    public record Result(int changes, int queued) {}

    private final NotificationOutbox outbox;
    private final Operations operations;
    private final ScanCursors cursors;
    private final MailAddresses addresses;
    private final NotificationSettings settings;
    private final Duration settle;

    public QueueNotifications(NotificationOutbox outbox, Operations operations, ScanCursors cursors,
                              MailAddresses addresses, NotificationSettings settings, Duration settle) {
        this.outbox = outbox;
        this.operations = operations;
        this.cursors = cursors;
        this.addresses = addresses;
        this.settings = settings;
        this.settle = settle;
    }

    public Result run() {
        var position = cursors.position(SCAN).flatMap(p -> parse(p.token()));
        if (position.isEmpty()) {
            // first run (or reset): what happened before notifications were switched on is not announced
            cursors.remember(SCAN, new ScanCursors.Position(Long.toString(outbox.latestPosition())));
            return new Result(0, 0);
        }
        long after = position.get();
        var changes = outbox.changesAfter(after, ANNOUNCED, settle, LIMIT);
        var queued = new ArrayList<Queued>();
        long settledUpTo = after;
        boolean contiguous = true;
        for (var change : changes) {
            operations.find(change.operationId()).ifPresent(op -> queued.addAll(messagesOf(change, op)));
            contiguous = contiguous && change.settled();
            if (contiguous) {
                settledUpTo = change.position();
            }
        }
        var fresh = queued.isEmpty() ? 0 : outbox.enqueue(queued);
        if (settledUpTo > after) {
            cursors.remember(SCAN, new ScanCursors.Position(Long.toString(settledUpTo)));
        }
        return new Result(changes.size(), fresh);
    }

    List<Queued> messagesOf(StatusChange change, Operation op) {
        if (change.opened() && op.requester().equals(SYSTEM)) {
            return List.of(); // an expiry or a drift removal the system opened: its end is announced, not its start
        }
        var event = change.opened() ? "ACCEPTED" : change.status().name();
        var id = op.id().value();
        var link = settings.requestLink(id);
        var what = op.kind().name().toLowerCase(java.util.Locale.ROOT) + " of " + op.subject().value() + " on "
                + op.target().value();
        var title = titleOf(change, op);
        var text = title + ": " + what + "." + (change.status().isFailed() ? " " + op.hint().message() : "")
                + " Requested by " + op.requester() + ".";
        var out = new ArrayList<Queued>();
        var people = new LinkedHashSet<String>();
        people.add(op.requester());
        people.add(op.subject().value());
        for (var person : people) {
            addresses.of(person).ifPresent(address -> out.add(new Queued(key(id, event, Channel.MAIL, address),
                    new Message(Channel.MAIL, address, "[Changeflow] " + title, text, link))));
        }
        if (!change.opened()) {
            out.add(new Queued(key(id, event, Channel.WEBHOOK, REQUESTS), new Message(Channel.WEBHOOK, REQUESTS, title, text, link)));
        }
        if (change.status().isFailed()) {
            out.add(new Queued(key(id, event, Channel.WEBHOOK, OPERATORS),
                    new Message(Channel.WEBHOOK, OPERATORS, title, text, link)));
        }
        return out;
    }

    private static String titleOf(StatusChange change, Operation op) {
        if (change.opened()) {
            return "Request accepted";
        }
        return switch (change.status()) {
            case VALIDATED -> "In effect";
            case REJECTED -> "Rejected";
            case CLOSED -> "Closed without taking effect";
            case EXPIRED -> "Expired and removed";
            case REVOKED -> "Removed";
            case DEPLOY_UNCONFIRMED -> "Deploy not confirmed in time";
            default -> "Failed (" + change.status().name() + ")";
        };
    }

    static String key(String operationId, String event, Channel channel, String recipient) {
        var key = "op:" + operationId + ":" + event + ":" + channel.name() + ":" + recipient;
        return key.length() > 255 ? key.substring(0, 255) : key;
    }

    private static Optional<Long> parse(String token) {
        try {
            return Optional.of(Long.parseLong(token));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
