package io.changeflow.application.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.domain.config.RawValue;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 32 item 2: reminders before a grant ends, once per window, with the renewal form's link (settable clock). */
class RemindersTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeNotificationOutbox outbox = new FakeNotificationOutbox(app.operations);
    private final NoOne directory = new NoOne();

    private static final class NoOne implements DemoPeople {
        @Override
        public List<Person> people() {
            return List.of();
        }

        @Override
        public Optional<Person> byAccount(String account) {
            return Optional.empty();
        }
    }

    private QueueReminders reminders(String windows) {
        var settings = NotificationSettings.of(RawValue.of("http://localhost:8080"), RawValue.of("corp.example"),
                windows == null ? RawValue.missing() : RawValue.of(windows));
        return new QueueReminders(app.operations, outbox, new MailAddresses(directory, settings.mailDomain()), settings, app.clock);
    }

    private List<String> keys() {
        return outbox.queued().stream().map(Queued::key).toList();
    }

    @Test
    void theSubjectAndTheRequesterAreRemindedADayAndAnHourBeforeOnceEachWithTheFilledRenewalForm() {
        var until = app.clock.instant().plus(Duration.ofDays(3));
        var op = app.grantInEffect("alice", "bob", until);
        var job = reminders(null);

        assertThat(job.run()).isZero();
        app.clock.set(until.minus(Duration.ofHours(23)));
        assertThat(job.run()).isEqualTo(2);
        assertThat(job.run()).isZero();
        app.clock.set(until.minus(Duration.ofMinutes(50)));
        assertThat(job.run()).isEqualTo(2);
        assertThat(job.run()).isZero();
        app.clock.set(until.plus(Duration.ofMinutes(1)));
        assertThat(job.run()).isZero();

        assertThat(keys()).containsExactly(
                "remind:" + op.value() + ":PT24H:alice@corp.example", "remind:" + op.value() + ":PT24H:bob@corp.example",
                "remind:" + op.value() + ":PT1H:alice@corp.example", "remind:" + op.value() + ":PT1H:bob@corp.example");
        assertThat(outbox.queued()).allSatisfy(q -> assertThat(q.message().link()).isEqualTo(
                "http://localhost:8080/bindings?renew=" + app.op(op).target().value() + "&subject=bob"));
    }

    @Test
    void aGrantWhoseUntilIsCloserThanAWindowWhenItTookEffectGetsNoReminderForThatWindow() {
        var until = app.clock.instant().plus(Duration.ofMinutes(45));
        app.grantInEffect("alice", "alice", until);
        var job = reminders(null);

        app.clock.set(until.minus(Duration.ofMinutes(10)));

        assertThat(job.run()).isZero();
    }

    @Test
    void aGrantForFiveHoursGetsTheOneHourReminderOnly() {
        var until = app.clock.instant().plus(Duration.ofHours(5));
        var op = app.grantInEffect("alice", "alice", until);
        var job = reminders(null);

        app.clock.set(until.minus(Duration.ofHours(2)));
        assertThat(job.run()).isZero();
        app.clock.set(until.minus(Duration.ofMinutes(30)));
        assertThat(job.run()).isEqualTo(1);

        assertThat(keys()).containsExactly("remind:" + op.value() + ":PT1H:alice@corp.example");
    }

    @Test
    void garbledWindowsFallBackToADayAndAnHourAndNoneSwitchesThemOff() {
        assertThat(NotificationSettings.of(RawValue.missing(), RawValue.missing(), RawValue.of("1d,banana")).reminders())
                .containsExactly(Duration.ofDays(1), Duration.ofHours(1));
        assertThat(NotificationSettings.of(RawValue.missing(), RawValue.missing(), RawValue.of("-1h")).reminders())
                .containsExactly(Duration.ofDays(1), Duration.ofHours(1));
        assertThat(NotificationSettings.of(RawValue.missing(), RawValue.missing(), RawValue.of("2h, 3d")).reminders())
                .containsExactly(Duration.ofDays(3), Duration.ofHours(2));
        assertThat(NotificationSettings.of(RawValue.missing(), RawValue.missing(), RawValue.of("none")).reminders()).isEmpty();
        var garbled = NotificationSettings.of(RawValue.of("javascript:alert(1)"), RawValue.of("a b"), RawValue.missing());
        assertThat(garbled.baseUrl()).isEqualTo("http://localhost:8080");
        assertThat(garbled.mailDomain()).isEqualTo("example.com");
    }
}
