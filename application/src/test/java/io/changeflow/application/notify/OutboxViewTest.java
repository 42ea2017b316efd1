package io.changeflow.application.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.NotificationOutbox.State;
import io.changeflow.application.port.out.Notifications;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Issue 32: the operators' view of the outbox (states, pages, errors without secrets) and the counts the gauges read. */
class OutboxViewTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeNotificationOutbox outbox = new FakeNotificationOutbox(app.operations);
    private final ListNotifications list = new ListNotifications(outbox, 3);

    private static Queued mail(String key) {
        return new Queued(key, new Message(Channel.MAIL, "bob@corp.example", "In effect", "text",
                "https://changeflow.example.com/requests/" + key));
    }

    private ListNotifications.Page page(Optional<State> state, OptionalLong before, int limit) {
        return list.list(new ListNotifications.Command(state, before, limit));
    }

    private static List<String> keys(ListNotifications.Page page) {
        return page.entries().stream().map(e -> e.message().key()).toList();
    }

    /** m1 sent, m2 pending, m3 retrying (one failure), m4 gave up (three failures). */
    private void fourMessagesInEveryState() {
        outbox.enqueue(List.of(mail("m1"), mail("m2"), mail("m3"), mail("m4")));
        var now = app.clock.instant();
        outbox.sent(1, now);
        outbox.failed(3, now.plusSeconds(5), "connection refused");
        for (int i = 0; i < 3; i++) {
            outbox.failed(4, now.plusSeconds(600), "535 authentication failed");
        }
    }

    @Test
    void eachStateListsItsMessagesNewestFirstWithAttemptsNextAttemptAndLastError() {
        fourMessagesInEveryState();

        assertThat(keys(page(Optional.empty(), OptionalLong.empty(), 50))).containsExactly("m4", "m3", "m2", "m1");
        assertThat(page(Optional.empty(), OptionalLong.empty(), 50).entries()).extracting(ListNotifications.Entry::state)
                .containsExactly(State.GAVE_UP, State.RETRYING, State.PENDING, State.SENT);
        assertThat(keys(page(Optional.of(State.SENT), OptionalLong.empty(), 50))).containsExactly("m1");
        assertThat(keys(page(Optional.of(State.PENDING), OptionalLong.empty(), 50))).containsExactly("m2");
        assertThat(keys(page(Optional.of(State.GAVE_UP), OptionalLong.empty(), 50))).containsExactly("m4");
        assertThat(page(Optional.of(State.RETRYING), OptionalLong.empty(), 50).entries()).singleElement().satisfies(e -> {
            assertThat(e.message().key()).isEqualTo("m3");
            assertThat(e.message().attempts()).isEqualTo(1);
            assertThat(e.message().nextAttempt()).isEqualTo(app.clock.instant().plusSeconds(5));
            assertThat(e.lastError()).contains("connection refused");
            assertThat(e.message().message().link()).isEqualTo("https://changeflow.example.com/requests/m3");
        });
    }

    @Test
    void pagesContinueBelowTheLastIdShownAndTheLastPageSaysSo() {
        outbox.enqueue(IntStream.rangeClosed(1, 5).mapToObj(i -> mail("m" + i)).toList());

        var first = page(Optional.empty(), OptionalLong.empty(), 2);
        assertThat(keys(first)).containsExactly("m5", "m4");
        var second = page(Optional.empty(), first.nextBefore(), 2);
        assertThat(keys(second)).containsExactly("m3", "m2");
        var last = page(Optional.empty(), second.nextBefore(), 2);
        assertThat(keys(last)).containsExactly("m1");
        assertThat(last.nextBefore()).isEmpty();
        assertThat(page(Optional.empty(), OptionalLong.empty(), 0).entries()).as("at least one").hasSize(1);
    }

    @Test
    void aWebhooksAddressAndCredentialsInAnErrorAreNeitherStoredNorShown() {
        Notifications leaky = m -> {
            throw new Notifications.NotificationFailedException("webhook operators not reached: POST "
                    + "https://hooks.slack.com/services/T000/B000/XXXXsecretXXXX failed; smtp://mailer:hunter2@smtp.corp:587 "
                    + "password=hunter2 token: abc123", null);
        };
        outbox.enqueue(List.of(mail("m1")));
        new SendNotifications(outbox, leaky, app.metrics, app.clock).run();

        var error = page(Optional.empty(), OptionalLong.empty(), 10).entries().getFirst().lastError().orElseThrow();
        assertThat(error).doesNotContain("XXXXsecretXXXX", "T000", "hunter2", "abc123", "mailer")
                .contains("https://hooks.slack.com/…", "smtp://smtp.corp/…", "password=***", "webhook operators not reached");
        assertThat(ErrorTexts.withoutSecrets("Authorization: Bearer eyJabc.def")).isEqualTo("Authorization: ***");
        assertThat(ErrorTexts.withoutSecrets("x".repeat(900))).hasSize(500);
    }

    @Test
    void theUnsentAreCountedPerStateEveryStatePresent() {
        var count = new CountUnsentNotifications(outbox);
        assertThat(count.unsent()).isEqualTo(Map.of(State.PENDING, 0L, State.RETRYING, 0L, State.GAVE_UP, 0L));

        outbox.enqueue(List.of(mail("m1"), mail("m2")));
        for (int i = 0; i < SendNotifications.MAX_ATTEMPTS; i++) {
            outbox.failed(2, app.clock.instant(), "refused");
        }
        assertThat(count.unsent()).isEqualTo(Map.of(State.PENDING, 1L, State.RETRYING, 0L, State.GAVE_UP, 1L));
    }
}
