package io.changeflow.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BisectionTest {

    @Test
    void transientFailureRequeuesEveryMemberAsTheyWere() {
        var plan = Bisection.plan(List.of("a", "b", "c"), 2, 3, FailureKind.TRANSIENT);
        assertThat(plan).isEqualTo(new Bisection.Plan.RequeueAll<>(List.of("a", "b", "c")));
    }

    @Test
    void transientFailureBlamesNoOneEvenAloneOrAtTheCap() {
        assertThat(Bisection.plan(List.of("a"), 0, 3, FailureKind.TRANSIENT))
                .isEqualTo(new Bisection.Plan.RequeueAll<>(List.of("a")));
        assertThat(Bisection.plan(List.of("a", "b"), 3, 3, FailureKind.TRANSIENT))
                .isEqualTo(new Bisection.Plan.RequeueAll<>(List.of("a", "b")));
    }

    @Test
    void singleMemberOfADeterministicFailureIsBlamed() {
        assertThat(Bisection.plan(List.of("a"), 0, 3, FailureKind.DETERMINISTIC)).isEqualTo(new Bisection.Plan.Blame<>("a"));
        assertThat(Bisection.plan(List.of("a"), 3, 3, FailureKind.DETERMINISTIC)).isEqualTo(new Bisection.Plan.Blame<>("a"));
    }

    @Test
    void splitsIntoHalvesOneLevelDeeperKeepingTheOrder() {
        assertThat(Bisection.plan(List.of("a", "b", "c", "d"), 0, 3, FailureKind.DETERMINISTIC))
                .isEqualTo(new Bisection.Plan.Split<>(List.of("a", "b"), List.of("c", "d"), 1));
        assertThat(Bisection.plan(List.of("a", "b", "c", "d", "e"), 1, 3, FailureKind.DETERMINISTIC))
                .isEqualTo(new Bisection.Plan.Split<>(List.of("a", "b", "c"), List.of("d", "e"), 2));
        assertThat(Bisection.plan(List.of("a", "b"), 2, 3, FailureKind.DETERMINISTIC))
                .isEqualTo(new Bisection.Plan.Split<>(List.of("a"), List.of("b"), 3));
    }

    @Test
    void givesUpAtTheSplitCap() {
        assertThat(Bisection.plan(List.of("a", "b", "c"), 3, 3, FailureKind.DETERMINISTIC))
                .isEqualTo(new Bisection.Plan.GiveUp<>(List.of("a", "b", "c")));
        assertThat(Bisection.plan(List.of("a", "b"), 0, 0, FailureKind.DETERMINISTIC))
                .isEqualTo(new Bisection.Plan.GiveUp<>(List.of("a", "b")));
    }

    @Test
    void planDoesNotChangeWhenTheCallerChangesItsList() {
        var members = new ArrayList<>(List.of("a", "b", "c", "d"));
        var split = (Bisection.Plan.Split<String>) Bisection.plan(members, 0, 3, FailureKind.DETERMINISTIC);
        var requeue = (Bisection.Plan.RequeueAll<String>) Bisection.plan(members, 0, 3, FailureKind.TRANSIENT);
        members.clear();
        assertThat(split.firstHalf()).containsExactly("a", "b");
        assertThat(split.secondHalf()).containsExactly("c", "d");
        assertThat(requeue.members()).containsExactly("a", "b", "c", "d");
        assertThatThrownBy(() -> split.firstHalf().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aBatchHasAtLeastOneMember() {
        assertThatThrownBy(() -> Bisection.plan(List.of(), 0, 3, FailureKind.DETERMINISTIC))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bisection.plan(null, 0, 3, FailureKind.DETERMINISTIC))
                .isInstanceOf(NullPointerException.class);
    }
}
