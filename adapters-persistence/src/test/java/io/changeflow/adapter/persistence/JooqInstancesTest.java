package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.SERVICE_INSTANCE;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Instances.Identity;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The instances with their versions (V14, issue 31) on the real database, every time on its clock. */
class JooqInstancesTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @BeforeEach
    void empty() {
        persistence.dsl().deleteFrom(SERVICE_INSTANCE).execute();
    }

    @Test
    void aStartedInstanceIsListedWithItsVersionAndCommitOnTheDatabaseClock() {
        var instances = persistence.instances();
        instances.started(new Identity("app-1", "0.5.0", "0123456789abcdef0123456789abcdef01234567"));

        var roster = instances.roster();

        assertThat(roster.instances()).singleElement().satisfies(instance -> {
            assertThat(instance.identity()).isEqualTo(new Identity("app-1", "0.5.0", "0123456789abcdef0123456789abcdef01234567"));
            assertThat(instance.startedAt()).isEqualTo(instance.lastSeen());
            assertThat(instance.lastSeen()).isBeforeOrEqualTo(roster.at());
            assertThat(instance.stoppedAt()).isEmpty();
        });
    }

    @Test
    void aRestartUnderTheSameNameReplacesTheRowWithTheNewVersionAndClearsItsStop() {
        var instances = persistence.instances();
        instances.started(new Identity("app-1", "0.4.0", "aaaa111"));
        instances.stopped("app-1");

        instances.started(new Identity("app-1", "0.5.0", "bbbb222"));

        assertThat(instances.roster().instances()).singleElement().satisfies(instance -> {
            assertThat(instance.identity()).isEqualTo(new Identity("app-1", "0.5.0", "bbbb222"));
            assertThat(instance.stoppedAt()).isEmpty();
        });
    }

    @Test
    void aHeartbeatMovesLastSeenAndSaysWhenTheRowIsGone() {
        var instances = persistence.instances();
        instances.started(new Identity("app-1", "0.5.0", "bbbb222"));
        agePastSeconds("app-1", 30);

        assertThat(instances.seen("app-1")).isTrue();
        assertThat(instances.seen("never-started")).isFalse();

        var roster = instances.roster();
        assertThat(roster.instances()).singleElement().satisfies(instance -> {
            assertThat(Duration.between(instance.lastSeen(), roster.at())).isLessThan(Duration.ofSeconds(30));
            assertThat(Duration.between(instance.startedAt(), instance.lastSeen())).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        });
    }

    @Test
    void aGracefulStopIsRecordedAndAnUnknownNameChangesNothing() {
        var instances = persistence.instances();
        instances.started(new Identity("app-1", "0.5.0", "bbbb222"));

        instances.stopped("app-1");
        instances.stopped("unknown");

        assertThat(instances.roster().instances()).singleElement().satisfies(instance -> {
            assertThat(instance.stoppedAt()).isPresent();
            assertThat(instance.stoppedAt()).isEqualTo(Optional.of(instance.lastSeen()));
        });
    }

    @Test
    void onlyInstancesNotSeenForTheAgeAreForgotten() {
        var instances = persistence.instances();
        instances.started(new Identity("old", "0.3.0", "cccc333"));
        instances.started(new Identity("new", "0.5.0", "bbbb222"));
        agePastSeconds("old", 3_600);

        assertThat(instances.forgetUnseenFor(Duration.ofMinutes(30))).isEqualTo(1);

        assertThat(instances.roster().instances()).extracting(i -> i.identity().name()).containsExactly("new");
    }

    private static void agePastSeconds(String name, int seconds) {
        persistence.dsl().update(SERVICE_INSTANCE)
                .set(SERVICE_INSTANCE.STARTED_AT, Sql.ago(Duration.ofSeconds(seconds)))
                .set(SERVICE_INSTANCE.LAST_SEEN, Sql.ago(Duration.ofSeconds(seconds)))
                .where(SERVICE_INSTANCE.NAME.eq(name)).execute();
    }
}
