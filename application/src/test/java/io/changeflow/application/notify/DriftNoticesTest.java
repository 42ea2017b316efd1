package io.changeflow.application.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.fake.FakeNotifications;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.SubjectId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 1, drift: an opened drift item is told once to the operators' channel (the Drift page's link) and by
 * mail to the subject of its line and the requester of the request it names; an old item is not told again.
 */
class DriftNoticesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeDrifts drifts = new FakeDrifts();
    private final FakeNotificationOutbox outbox = new FakeNotificationOutbox(app.operations);
    private final FakeNotifications server = new FakeNotifications();
    private final NotificationSettings settings = NotificationSettings.of(RawValue.of("https://changeflow.example.com"),
            RawValue.of("corp.example"), RawValue.missing());
    private final MailAddresses addresses = new MailAddresses(new NoDirectory(), settings.mailDomain());
    private final QueueDriftNotices notices = new QueueDriftNotices(drifts, app.operations, outbox, addresses, settings,
            app.clock);
    private final SendNotifications send = new SendNotifications(outbox, server, app.metrics, app.clock);

    private static final class NoDirectory implements DemoPeople {
        @Override
        public List<Person> people() {
            return List.of();
        }

        @Override
        public Optional<Person> byAccount(String account) {
            return Optional.empty();
        }
    }

    private void seen(Finding finding, Instant at) {
        drifts.record(FakeTargets.SINGLE, List.of(new Drifts.Sighting(finding,
                new Evidence(Optional.of("a".repeat(40)), Optional.of("Mallory"), Optional.of(at)))), "c1", at);
    }

    @Test
    void anOpenedItemIsToldOnceToTheOperatorsAndByMailToItsSubjectAndTheRequesterOfItsLine() {
        var grant = app.grantInEffect("alice", "bob", app.clock.instant().plus(Duration.ofDays(7)));
        seen(new Finding(DriftKind.EDITED_LINE, Optional.of(SubjectId.of("bob")), "bob until=never op=" + grant.value(),
                Optional.of(grant), "the grant's line was edited by hand"), app.clock.instant());

        notices.run();
        notices.run();
        send.run();

        assertThat(server.delivered()).extracting(Message::channel, Message::recipient, Message::link)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(Channel.WEBHOOK, QueueNotifications.OPERATORS,
                                "https://changeflow.example.com/console/drift"),
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "bob@corp.example",
                                "https://changeflow.example.com/records"),
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "alice@corp.example",
                                "https://changeflow.example.com/records"));
        assertThat(server.delivered()).allSatisfy(m -> assertThat(m.text())
                .contains("edited line", "bob until=never", "Commit by Mallory"));
    }

    @Test
    void aLineOfNobodyIsToldToTheOperatorsOnlyAndAnItemOpenedLongAgoIsNotToldAgain() {
        seen(new Finding(DriftKind.NOT_A_GRANT, Optional.empty(), "# a note", Optional.empty(), "not a grant"),
                app.clock.instant().minus(Duration.ofHours(2)));
        assertThat(notices.run().queued()).as("opened before the window: told by the runs of that time").isZero();

        seen(new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(SubjectId.of("mallory")), "mallory until=never",
                Optional.empty(), "nobody approved it"), app.clock.instant());
        notices.run();
        send.run();

        assertThat(server.delivered()).extracting(Message::channel, Message::recipient).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(Channel.WEBHOOK, QueueNotifications.OPERATORS),
                org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "mallory@corp.example"));
    }
}
