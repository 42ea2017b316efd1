package io.changeflow.application.instance;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeInstances;
import io.changeflow.application.fake.SettableClock;
import io.changeflow.application.instance.ShowInstances.State;
import io.changeflow.application.port.out.Instances.Identity;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every instance's version and commit as an operator sees them during a rolling upgrade (issue 31). */
class InstancesTest {

    private static final Duration STALE = Duration.ofSeconds(60);
    private static final Duration FORGET = Duration.ofHours(24);

    private final SettableClock clock = SettableClock.at("2026-12-07T08:00:00Z");
    private final FakeInstances instances = new FakeInstances(clock);
    private final ShowInstances show = new ShowInstances(instances, STALE);

    private AnnounceInstance announce(String name, String version, String commit) {
        return new AnnounceInstance(instances, new Identity(name, version, commit), FORGET);
    }

    @Test
    void aMixedVersionClusterShowsEachInstancesVersionAndCommitAndSaysItIsMixed() {
        var old1 = announce("app-1", "0.4.0", "aaaa111");
        var old2 = announce("app-2", "0.4.0", "aaaa111");
        old1.started();
        old2.started();
        clock.advance(Duration.ofSeconds(5));
        var upgraded = announce("app-3", "0.5.0", "bbbb222");
        upgraded.started();

        var cluster = show.show();

        assertThat(cluster.instances()).extracting(v -> v.instance().identity())
                .containsExactly(new Identity("app-3", "0.5.0", "bbbb222"), new Identity("app-1", "0.4.0", "aaaa111"),
                        new Identity("app-2", "0.4.0", "aaaa111"));
        assertThat(cluster.instances()).extracting(ShowInstances.InstanceView::state).containsOnly(State.RUNNING);
        assertThat(cluster.versions()).containsExactly("0.4.0", "0.5.0");
        assertThat(cluster.mixed()).isTrue();
    }

    @Test
    void aGracefulStopShowsStoppedAndLeavesTheVersionsOfTheRunningOnes() {
        var old = announce("app-1", "0.4.0", "aaaa111");
        var upgraded = announce("app-2", "0.5.0", "bbbb222");
        old.started();
        upgraded.started();

        old.stopped();

        var cluster = show.show();
        assertThat(cluster.instances()).extracting(v -> v.instance().identity().name(), ShowInstances.InstanceView::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("app-2", State.RUNNING),
                        org.assertj.core.groups.Tuple.tuple("app-1", State.STOPPED));
        assertThat(cluster.versions()).containsExactly("0.5.0");
        assertThat(cluster.mixed()).isFalse();
    }

    @Test
    void anInstanceWhoseHeartbeatsStoppedWithoutAStopIsSilentPastTheStaleBound() {
        var dies = announce("app-1", "0.4.0", "aaaa111");
        var lives = announce("app-2", "0.4.0", "aaaa111");
        dies.started();
        lives.started();

        clock.advance(STALE);
        lives.beat();
        assertThat(show.show().instances()).extracting(ShowInstances.InstanceView::state).as("at the bound")
                .containsOnly(State.RUNNING);

        clock.advance(Duration.ofSeconds(1));
        lives.beat();
        var cluster = show.show();
        assertThat(cluster.instances()).extracting(v -> v.instance().identity().name(), ShowInstances.InstanceView::state,
                ShowInstances.InstanceView::sinceSeen)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("app-2", State.RUNNING, Duration.ZERO),
                        org.assertj.core.groups.Tuple.tuple("app-1", State.SILENT, Duration.ofSeconds(61)));
        assertThat(cluster.versions()).as("only running instances count").containsExactly("0.4.0");
    }

    @Test
    void aHeartbeatAnnouncesTheInstanceAgainWhenItsRowWasForgotten() {
        var instance = announce("app-1", "0.5.0", "bbbb222");
        instance.started();
        instances.forget("app-1");

        clock.advance(Duration.ofSeconds(10));
        instance.beat();

        assertThat(show.show().instances()).singleElement().satisfies(view -> {
            assertThat(view.instance().identity()).isEqualTo(new Identity("app-1", "0.5.0", "bbbb222"));
            assertThat(view.state()).isEqualTo(State.RUNNING);
        });
    }

    @Test
    void heartbeatsForgetInstancesNobodySawForTheForgetBound() {
        announce("gone", "0.3.0", "cccc333").started();
        var stays = announce("stays", "0.4.0", "aaaa111");
        stays.started();

        clock.advance(FORGET);
        stays.beat();
        assertThat(show.show().instances()).hasSize(2);

        clock.advance(Duration.ofSeconds(1));
        stays.beat();
        assertThat(show.show().instances()).extracting(v -> v.instance().identity().name()).containsExactly("stays");
    }
}
