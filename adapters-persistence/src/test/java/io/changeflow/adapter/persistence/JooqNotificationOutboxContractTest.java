package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.NotificationOutbox.State;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The notifications' outbox (V17, issue 32) on the real database: the committed changes, dedup across racers, retries. */
class JooqNotificationOutboxContractTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(20);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(16);

    private final NotificationOutbox outbox = persistence.notificationOutbox();

    private static Queued mail(String key, String to) {
        return new Queued(key, new Message(Channel.MAIL, to, "In effect", "text", "http://localhost:8080/requests/x"));
    }

    @Test
    void theChangesAfterAPositionAreTheOpeningsAndTheAskedStatusesInOrderSettledByTheDatabaseClock() {
        var start = outbox.latestPosition();
        var rejected = Fixtures.rejected(persistence.operations(), Fixtures.unique("s"), "db-prod-readonly");
        Fixtures.batchWaiting(persistence.operations(), Fixtures.unique("s"), "db-prod-readonly");

        var changes = outbox.changesAfter(start, Set.of(BindingStatus.REJECTED), Duration.ZERO, 100);

        assertThat(changes).extracting(c -> c.operationId().value(), NotificationOutbox.StatusChange::opened,
                        NotificationOutbox.StatusChange::status)
                .startsWith(
                        org.assertj.core.groups.Tuple.tuple(rejected.id().value(), true, BindingStatus.APPROVAL_SENDING),
                        org.assertj.core.groups.Tuple.tuple(rejected.id().value(), false, BindingStatus.REJECTED))
                .hasSize(3);
        assertThat(changes).extracting(NotificationOutbox.StatusChange::position).isSorted();
        assertThat(outbox.changesAfter(changes.get(1).position(), Set.of(BindingStatus.REJECTED), Duration.ZERO, 100))
                .hasSize(1).allMatch(c -> c.opened());
        assertThat(outbox.changesAfter(start, Set.of(BindingStatus.REJECTED), Duration.ofHours(1), 100))
                .as("younger than the settle time").noneMatch(NotificationOutbox.StatusChange::settled);
        assertThat(outbox.latestPosition()).isEqualTo(persistence.dsl().select(
                org.jooq.impl.DSL.max(BINDING_HISTORY.ID)).from(BINDING_HISTORY).fetchOne(0, Long.class));
    }

    @Test
    void racingInstancesEnqueueEachKeyOnceAndTheMessageIsDueUntilSent() {
        var key = Fixtures.unique("op:x:VALIDATED:MAIL");
        var racers = new ArrayList<Callable<Integer>>();
        for (int i = 0; i < 16; i++) {
            racers.add(() -> outbox.enqueue(List.of(mail(key, "bob@example.com"))));
        }

        var outcomes = race(pool, racers);

        assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
        assertThat(outcomes).extracting(Fixtures.Outcome::value).containsOnly(0, 1).filteredOn(v -> v == 1).hasSize(1);
        var now = Instant.now().plus(1, ChronoUnit.SECONDS);
        var pending = outbox.due(now, 5, 1000).stream().filter(p -> p.key().equals(key)).toList();
        assertThat(pending).singleElement().satisfies(p -> {
            assertThat(p.message()).isEqualTo(mail(key, "bob@example.com").message());
            assertThat(p.attempts()).isZero();
        });
        var id = pending.getFirst().id();

        outbox.failed(id, now.plus(Duration.ofMinutes(1)), "connection refused");
        assertThat(outbox.due(now, 5, 1000)).noneMatch(p -> p.id() == id);
        var later = now.plus(Duration.ofMinutes(2));
        assertThat(outbox.due(later, 5, 1000)).filteredOn(p -> p.id() == id).singleElement()
                .satisfies(p -> assertThat(p.attempts()).isEqualTo(1));
        assertThat(outbox.due(later, 1, 1000)).as("attempts used up").noneMatch(p -> p.id() == id);

        assertThat(outbox.sent(id, later)).isTrue();
        assertThat(outbox.sent(id, later)).isFalse();
        assertThat(outbox.due(later, 5, 1000)).noneMatch(p -> p.id() == id);
        assertThat(outbox.enqueue(List.of(mail(key, "bob@example.com")))).as("a sent key is never queued again").isZero();
        assertThat(outbox.list(new NotificationOutbox.Query(Optional.of(State.SENT), OptionalLong.empty(), 5, 10)))
                .extracting(NotificationOutbox.Listed::key).contains(key);
    }

    @Test
    void theOperatorsListIsNewestFirstPerStateBelowACursorAndTheUnsentAreCountedPerState() {
        var prefix = Fixtures.unique("list");
        var before = outbox.countUnsent(3);
        outbox.enqueue(List.of(mail(prefix + ":sent", "a@example.com"), mail(prefix + ":pending", "b@example.com"),
                mail(prefix + ":retrying", "c@example.com"), mail(prefix + ":gaveup", "d@example.com")));
        var all = outbox.list(new NotificationOutbox.Query(Optional.empty(), OptionalLong.empty(), 3, 1000)).stream()
                .filter(m -> m.key().startsWith(prefix)).toList();
        assertThat(all).extracting(NotificationOutbox.Listed::key)
                .containsExactly(prefix + ":gaveup", prefix + ":retrying", prefix + ":pending", prefix + ":sent");
        var ids = all.stream().collect(java.util.stream.Collectors.toMap(m -> m.key().substring(prefix.length() + 1),
                NotificationOutbox.Listed::id));
        var now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        outbox.sent(ids.get("sent"), now);
        outbox.failed(ids.get("retrying"), now.plusSeconds(5), "connection refused");
        for (int i = 0; i < 3; i++) {
            outbox.failed(ids.get("gaveup"), now.plusSeconds(60), "535 authentication failed");
        }

        for (var state : State.values()) {
            assertThat(outbox.list(new NotificationOutbox.Query(Optional.of(state), OptionalLong.empty(), 3, 1000)))
                    .as(state.name()).filteredOn(m -> m.key().startsWith(prefix)).singleElement()
                    .satisfies(m -> assertThat(m.key()).isEqualTo(prefix + ":" + state.name().toLowerCase().replace("_", "")));
        }
        var retrying = outbox.list(new NotificationOutbox.Query(Optional.of(State.RETRYING),
                OptionalLong.of(ids.get("retrying") + 1), 3, 1)).getFirst();
        assertThat(retrying.id()).isEqualTo(ids.get("retrying"));
        assertThat(retrying.attempts()).isEqualTo(1);
        assertThat(retrying.nextAttempt()).isEqualTo(now.plusSeconds(5));
        assertThat(retrying.lastError()).contains("connection refused");
        assertThat(retrying.sentAt()).isEmpty();
        assertThat(retrying.message()).isEqualTo(mail(prefix + ":retrying", "c@example.com").message());
        assertThat(outbox.list(new NotificationOutbox.Query(Optional.of(State.SENT), OptionalLong.of(ids.get("sent") + 1), 3, 1)))
                .singleElement().satisfies(m -> assertThat(m.sentAt()).contains(now));
        assertThat(outbox.list(new NotificationOutbox.Query(Optional.empty(), OptionalLong.of(ids.get("sent")), 3, 1000)))
                .as("below the cursor").noneMatch(m -> m.key().startsWith(prefix));

        var after = outbox.countUnsent(3);
        for (var state : List.of(State.PENDING, State.RETRYING, State.GAVE_UP)) {
            assertThat(after.getOrDefault(state, 0L) - before.getOrDefault(state, 0L)).as(state.name()).isEqualTo(1);
        }
        assertThat(after).doesNotContainKey(State.SENT);
    }
}
