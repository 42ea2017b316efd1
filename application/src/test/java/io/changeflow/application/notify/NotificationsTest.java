package io.changeflow.application.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.fake.FakeNotifications;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 32 item 1: who gets what, once, with the request page's link; a failing server changes no outcome. */
class NotificationsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeNotificationOutbox outbox = new FakeNotificationOutbox(app.operations);
    private final FakeNotifications server = new FakeNotifications();
    private final NotificationSettings settings = NotificationSettings.of(RawValue.of("https://changeflow.example.com/"),
            RawValue.of("corp.example"), RawValue.missing());
    private final MailAddresses addresses = new MailAddresses(new OnePerson(), settings.mailDomain());
    private final QueueNotifications queue = new QueueNotifications(outbox, app.operations, app.cursors, addresses,
            settings, Duration.ofSeconds(30));
    private final SendNotifications send = new SendNotifications(outbox, server, app.metrics, app.clock);

    /** A directory that knows alice's address only. */
    private static final class OnePerson implements DemoPeople {
        @Override
        public List<Person> people() {
            return List.of(new Person("alice", "E1", "alice.a@mail.example", "requester"));
        }

        @Override
        public Optional<Person> byAccount(String account) {
            return people().stream().filter(p -> p.account().equals(account)).findFirst();
        }
    }

    @BeforeEach
    void startsAfterWhatHappenedBefore() {
        assertThat(queue.run()).isEqualTo(new QueueNotifications.Result(0, 0));
    }

    private List<Message> delivered(OperationId id) {
        return server.delivered().stream().filter(m -> m.link().endsWith(id.value())).toList();
    }

    @Test
    void requesterAndSubjectAreMailedOnAcceptedAndInEffectAndTheRequestsWebhookOnInEffectEachOnceWithTheLink() {
        var op = app.grantInEffect("alice", "bob", app.clock.instant().plus(Duration.ofDays(7)));

        queue.run();
        queue.run();
        send.run();
        send.run();

        var link = "https://changeflow.example.com/requests/" + op.value();
        assertThat(delivered(op)).extracting(Message::channel, Message::recipient, Message::title, Message::link)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "alice.a@mail.example", "[Changeflow] Request accepted", link),
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "bob@corp.example", "[Changeflow] Request accepted", link),
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "alice.a@mail.example", "[Changeflow] In effect", link),
                        org.assertj.core.groups.Tuple.tuple(Channel.MAIL, "bob@corp.example", "[Changeflow] In effect", link),
                        org.assertj.core.groups.Tuple.tuple(Channel.WEBHOOK, QueueNotifications.REQUESTS, "In effect", link));
        assertThat(app.metrics.count("notificationSent", "MAIL")).isEqualTo(4);
        assertThat(app.metrics.count("notificationSent", "WEBHOOK")).isEqualTo(1);
    }

    @Test
    void aRescanFromTheStartOrASecondInstanceEnqueuesNothingTwice() {
        var op = app.grantInEffect("alice", "alice", app.clock.instant().plus(Duration.ofDays(7)));
        queue.run();
        send.run();
        app.cursors.remember(QueueNotifications.SCAN, new io.changeflow.application.port.out.ScanCursors.Position("0"));
        var again = new QueueNotifications(outbox, app.operations, app.cursors, addresses, settings, Duration.ZERO);

        assertThat(again.run().queued()).isZero();
        send.run();

        assertThat(delivered(op)).hasSize(3); // one requester who is the subject: accepted, in effect, and the webhook
    }

    @Test
    void aRejectedRequestIsMailedWithoutTheOperatorsAndAFailedOneAlsoToTheOperatorsWithTheNextAction() {
        var rejected = app.rejected("carol");
        var failed = app.pipelineFailed("dave");

        queue.run();
        send.run();

        assertThat(delivered(rejected)).extracting(Message::title)
                .contains("[Changeflow] Rejected", "Rejected").doesNotContain("Failed");
        assertThat(delivered(rejected)).noneMatch(m -> m.recipient().equals(QueueNotifications.OPERATORS));
        var status = app.op(failed).binding().orElseThrow();
        assertThat(status.isFailed()).isTrue();
        assertThat(delivered(failed)).anySatisfy(m -> {
            assertThat(m.recipient()).isEqualTo(QueueNotifications.OPERATORS);
            assertThat(m.text()).contains(app.op(failed).hint().message());
        });
        assertThat(delivered(failed)).filteredOn(m -> m.channel() == Channel.MAIL && m.recipient().equals("dave@corp.example"))
                .extracting(Message::title).contains("[Changeflow] Failed (" + status.name() + ")");
    }

    @Test
    void aDownServerIsRetriedWithBackoffAndNeverChangesTheWorkflow() {
        server.down(true);
        var op = app.grantInEffect("alice", "bob", app.clock.instant().plus(Duration.ofDays(7)));
        queue.run();

        var first = send.run();
        assertThat(first.sent()).isZero();
        assertThat(first.failed()).as("one try per channel and run: a slow server costs one timeout").isEqualTo(2);
        assertThat(server.attempts()).isEqualTo(2);
        assertThat(app.op(op).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.count("notificationFailed", "MAIL")).isEqualTo(1);
        assertThat(app.metrics.count("notificationFailed", "WEBHOOK")).isEqualTo(1);

        server.down(false);
        app.clock.advance(SendNotifications.FIRST_RETRY);
        assertThat(send.run().sent()).isEqualTo(5);
        assertThat(send.run().sent()).isZero();
        assertThat(delivered(op)).hasSize(5);
        assertThat(app.op(op).binding()).contains(BindingStatus.VALIDATED);
    }

    @Test
    void theBackoffDoublesUpToTenMinutes() {
        assertThat(SendNotifications.backoff(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(SendNotifications.backoff(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(SendNotifications.backoff(4)).isEqualTo(Duration.ofSeconds(40));
        assertThat(SendNotifications.backoff(59)).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void theScanDoesNotMovePastAChangeThatMayHaveEarlierOnesUncommitted() {
        outbox.unsettledFrom(outbox.latestPosition() + 1);
        app.grantInEffect("alice", "bob", app.clock.instant().plus(Duration.ofDays(7)));
        var before = app.cursors.position(QueueNotifications.SCAN);

        assertThat(queue.run().queued()).isEqualTo(5);

        assertThat(app.cursors.position(QueueNotifications.SCAN)).isEqualTo(before);
        outbox.unsettledFrom(Long.MAX_VALUE);
        assertThat(queue.run().queued()).isZero();
        assertThat(app.cursors.position(QueueNotifications.SCAN)).isNotEqualTo(before);
    }
}
