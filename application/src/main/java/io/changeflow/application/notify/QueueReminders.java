package io.changeflow.application.notify;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Binding;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Issue 32 item 2, the recurring job of expiry reminders (docs/notifications.md): for every grant in effect whose
 * until is within a reminder window ({@link NotificationSettings#reminders()}, default 1 day and 1 hour), the
 * subject and the requester get one e-mail per window with a link to the renewal form, filled in. A window that
 * had already begun when the grant took effect gets no reminder (a grant for 30 minutes gets no "1 hour left").
 * Deduplicated per grant, window and recipient by the outbox's key.
 */
public final class QueueReminders {

    private static final int LIMIT = 500;

    private final Operations operations;
    private final NotificationOutbox outbox;
    private final MailAddresses addresses;
    private final NotificationSettings settings;
    private final Clock clock;

    public QueueReminders(Operations operations, NotificationOutbox outbox, MailAddresses addresses,
                          NotificationSettings settings, Clock clock) {
        this.operations = operations;
        this.outbox = outbox;
        this.addresses = addresses;
        this.settings = settings;
        this.clock = clock;
    }

    /** @return how many reminders were newly queued */
    public int run() {
        if (settings.reminders().isEmpty()) {
            return 0;
        }
        var longest = settings.reminders().getFirst();
        var queued = new ArrayList<Queued>();
        for (var grant : operations.expiringWithin(longest, LIMIT).first()) {
            queued.addAll(remindersOf(grant));
        }
        return queued.isEmpty() ? 0 : outbox.enqueue(queued);
    }

    private List<Queued> remindersOf(Binding grant) {
        var until = grant.expiresAt().orElse(null);
        var now = clock.instant();
        if (until == null || !now.isBefore(until)) {
            return List.of();
        }
        // the shortest window that has begun: a reminder for a longer one that was missed is not sent late
        Duration window = null;
        for (var w : settings.reminders()) {
            if (!now.isBefore(until.minus(w))) {
                window = w;
            }
        }
        if (window == null || !grant.updatedAt().isBefore(until.minus(window))) {
            return List.of();
        }
        var op = operations.find(grant.operationId());
        var people = new LinkedHashSet<String>();
        op.ifPresent(o -> people.add(o.requester()));
        people.add(grant.subject().value());
        var link = settings.renewLink(grant.subject().value(), grant.target().value());
        var title = "Access ends soon: " + grant.target().value();
        var text = "The access of " + grant.subject().value() + " on " + grant.target().value() + " ends at " + until
                + ". Renew it in one click: the form is filled in.";
        var out = new ArrayList<Queued>();
        var keyPrefix = "remind:" + grant.operationId().value() + ":" + window + ":";
        for (var person : people) {
            addresses.of(person).ifPresent(address -> out.add(new Queued(keyPrefix + address,
                    new Message(Channel.MAIL, address, "[Changeflow] " + title, text, link))));
        }
        return out;
    }
}
