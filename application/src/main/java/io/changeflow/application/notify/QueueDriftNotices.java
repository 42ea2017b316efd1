package io.changeflow.application.notify;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.SubjectId;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Issue 32 item 1, drift: a drift item that opens (found, or open again after an adoption that ended without a grant)
 * is announced once to the operators' webhook, with the Drift page's link, and by mail to the people it concerns:
 * the subject of its line and the requester of the request the line names (their own pages show it too). Each opening
 * is queued under its own key (the item, its status write), so a rescan queues nothing twice; only openings of the
 * last {@link #WINDOW} are looked at, the job running far more often. It reads drift items and writes the outbox only.
 */
public final class QueueDriftNotices {

    /** How far back an opening is still announced (the job runs every few seconds). */
    public static final Duration WINDOW = Duration.ofHours(1);
    /** Open items read at most per run, the most recently seen first. */
    static final int LIMIT = 200;

    /** What one run did. */
    public record Result(int items, int queued) {}

    private final Drifts drifts;
    private final Operations operations;
    private final NotificationOutbox outbox;
    private final MailAddresses addresses;
    private final NotificationSettings settings;
    private final Clock clock;

    public QueueDriftNotices(Drifts drifts, Operations operations, NotificationOutbox outbox, MailAddresses addresses,
                             NotificationSettings settings, Clock clock) {
        this.drifts = drifts;
        this.operations = operations;
        this.outbox = outbox;
        this.addresses = addresses;
        this.settings = settings;
        this.clock = clock;
    }

    public Result run() {
        var since = clock.instant().minus(WINDOW);
        var opened = drifts.list(new Drifts.Query(Set.of(DriftStatus.OPEN), Optional.empty(), Optional.empty(),
                Optional.empty(), LIMIT)).stream().filter(item -> !item.statusAt().isBefore(since)).toList();
        var queued = new ArrayList<Queued>();
        opened.forEach(item -> queued.addAll(messagesOf(item)));
        return new Result(opened.size(), queued.isEmpty() ? 0 : outbox.enqueue(queued));
    }

    List<Queued> messagesOf(DriftItem item) {
        var title = "Drift on " + item.target().value() + ": " + item.kind().name().toLowerCase(java.util.Locale.ROOT)
                .replace('_', ' ');
        var text = title + ". Line: " + item.line() + (item.note().isBlank() ? "" : ". " + item.note())
                + item.evidence().author().map(author -> ". Commit by " + author).orElse("") + ".";
        var event = "drift:" + item.id() + ":" + item.statusAt().toEpochMilli();
        var out = new ArrayList<Queued>();
        out.add(new Queued(key(event, Channel.WEBHOOK, QueueNotifications.OPERATORS), new Message(Channel.WEBHOOK,
                QueueNotifications.OPERATORS, title, text, settings.baseUrl() + "/console/drift")));
        var people = new LinkedHashSet<String>();
        item.subject().map(SubjectId::value).ifPresent(people::add);
        item.operation().flatMap(operations::find).ifPresent(op -> people.add(op.requester()));
        for (var person : people) {
            addresses.of(person).ifPresent(address -> out.add(new Queued(key(event, Channel.MAIL, address),
                    new Message(Channel.MAIL, address, "[Changeflow] " + title, text
                            + " Operators are looking at it; your requests and access are on your page.",
                            settings.baseUrl() + "/records"))));
        }
        return out;
    }

    private static String key(String event, Channel channel, String recipient) {
        var key = event + ":" + channel.name() + ":" + recipient;
        return key.length() > 255 ? key.substring(0, 255) : key;
    }
}
