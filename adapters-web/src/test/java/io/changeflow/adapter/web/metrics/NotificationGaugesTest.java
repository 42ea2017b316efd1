package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.fake.FakeOperations;
import io.changeflow.application.notify.CountUnsentNotifications;
import io.changeflow.application.notify.SendNotifications;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.NotificationOutbox.State;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NotificationGaugesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeNotificationOutbox outbox = new FakeNotificationOutbox(new FakeOperations(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC)));
    private final AtomicLong nanos = new AtomicLong();

    private double gauge(State state) {
        return registry.get(NotificationGauges.UNSENT).tags("state", state.name()).gauge().value();
    }

    private static Queued mail(String key) {
        return new Queued(key, new Message(Channel.MAIL, "bob@corp.example", "t", "x", "https://cf.example/requests/" + key));
    }

    @Test
    void theUnsentPerStateAreGaugesOfEveryStateReadOncePerRefresh() {
        new NotificationGauges(new CountUnsentNotifications(outbox), nanos::get).bindTo(registry);
        outbox.enqueue(List.of(mail("a"), mail("b"), mail("c")));
        outbox.failed(2, Instant.EPOCH, "refused");

        assertThat(registry.get(NotificationGauges.UNSENT).gauges()).hasSize(3);
        assertThat(gauge(State.PENDING)).isEqualTo(2);
        assertThat(gauge(State.RETRYING)).isEqualTo(1);
        assertThat(gauge(State.GAVE_UP)).isZero();

        for (int i = 1; i < SendNotifications.MAX_ATTEMPTS; i++) {
            outbox.failed(2, Instant.EPOCH, "refused");
        }
        outbox.sent(1, Instant.EPOCH);
        assertThat(gauge(State.GAVE_UP)).as("within the refresh period").isZero();

        nanos.addAndGet(NotificationGauges.REFRESH.toNanos());
        assertThat(gauge(State.PENDING)).isEqualTo(1);
        assertThat(gauge(State.RETRYING)).isZero();
        assertThat(gauge(State.GAVE_UP)).isEqualTo(1);
        assertThat(registry.get(NotificationGauges.UNSENT).gauge().getId().getDescription()).isNotBlank();
    }
}
