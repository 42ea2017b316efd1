package io.changeflow.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransientRetriesTest {

    private static final RetryPolicy POLICY = new RetryPolicy(3,
            new ExponentialBackoff(Duration.ofMinutes(1), Duration.ofMinutes(30)));

    @Test
    void aFirstFailureRequeuesEveryoneWithOneFailureAndTheFirstBackoff() {
        var outcome = TransientRetries.afterFailure(List.of("a", "b", "c"), 0, Map.of(), POLICY);

        assertThat(outcome.plan()).isEqualTo(new Bisection.Plan.RequeueAll<>(List.of("a", "b", "c")));
        assertThat(outcome.retries()).containsOnlyKeys("a", "b", "c")
                .allSatisfy((m, r) -> assertThat(r).isEqualTo(new TransientRetries.Retry(1, Duration.ofMinutes(1))));
    }

    @Test
    void aGroupThatFailedBeforeIsSplitKeepingTheCounts() {
        var outcome = TransientRetries.afterFailure(List.of("a", "b", "c"), 1, Map.of("a", 1, "b", 2), POLICY);

        assertThat(outcome.plan()).isEqualTo(new Bisection.Plan.Split<>(List.of("a", "b"), List.of("c"), 2));
        assertThat(outcome.retries().get("a")).isEqualTo(new TransientRetries.Retry(1, Duration.ofMinutes(1)));
        assertThat(outcome.retries().get("b")).isEqualTo(new TransientRetries.Retry(2, Duration.ofMinutes(2)));
        assertThat(outcome.retries().get("c")).isEqualTo(new TransientRetries.Retry(0, Duration.ofMinutes(1)));
    }

    @Test
    void aSingleMemberBacksOffUntilTheCapThenGivesUp() {
        var first = TransientRetries.afterFailure(List.of("a"), 2, Map.of("a", 1), POLICY);
        assertThat(first.plan()).isInstanceOf(Bisection.Plan.RequeueAll.class);
        assertThat(first.retries().get("a")).isEqualTo(new TransientRetries.Retry(2, Duration.ofMinutes(2)));

        var last = TransientRetries.afterFailure(List.of("a"), 2, Map.of("a", 2), POLICY);
        assertThat(last.retries().get("a")).isEqualTo(new TransientRetries.Retry(3, Duration.ofMinutes(4)));

        var past = TransientRetries.afterFailure(List.of("a"), 2, Map.of("a", 3), POLICY);
        assertThat(past.plan()).isEqualTo(new Bisection.Plan.GiveUp<>(List.of("a")));
        assertThat(past.retries()).isEmpty();
    }

    @Test
    void withoutRetriesAGroupIsSplitAtOnceAndASingleGivesUp() {
        var none = new RetryPolicy(0, POLICY.backoff());
        assertThat(TransientRetries.afterFailure(List.of("a", "b"), 0, Map.of(), none).plan())
                .isInstanceOf(Bisection.Plan.Split.class);
        assertThat(TransientRetries.afterFailure(List.of("a"), 0, Map.of(), none).plan())
                .isInstanceOf(Bisection.Plan.GiveUp.class);
    }

    /** One member fails every batch it is in: it ends alone and gives up; everyone else is in a batch without it. */
    @Test
    void aMemberThatAlwaysFailsIsIsolatedWithinABoundedNumberOfFailures() {
        var members = new ArrayList<String>();
        for (var i = 0; i < 16; i++) {
            members.add("m" + i);
        }
        var failures = new HashMap<String, Integer>();
        var groups = new ArrayList<List<String>>(List.of(members));
        var depth = new HashMap<List<String>, Integer>(Map.of(members, 0));
        var landed = new ArrayList<String>();
        var gaveUp = new ArrayList<String>();
        var rounds = 0;
        while (!groups.isEmpty()) {
            rounds++;
            var group = groups.removeFirst();
            if (!group.contains("m5")) {
                landed.addAll(group);
                continue;
            }
            var outcome = TransientRetries.afterFailure(group, depth.get(group), failures, POLICY);
            outcome.retries().forEach((m, r) -> failures.put(m, r.transientFailures()));
            switch (outcome.plan()) {
                case Bisection.Plan.RequeueAll<String> all -> groups.add(all.members());
                case Bisection.Plan.Split<String> split -> {
                    depth.put(split.firstHalf(), split.depth());
                    depth.put(split.secondHalf(), split.depth());
                    groups.add(split.firstHalf());
                    groups.add(split.secondHalf());
                }
                case Bisection.Plan.GiveUp<String> giveUp -> gaveUp.addAll(giveUp.members());
                case Bisection.Plan.Blame<String> blame -> throw new AssertionError("transient failures blame no one");
            }
            assertThat(rounds).as("bounded").isLessThan(40);
        }
        assertThat(gaveUp).containsExactly("m5");
        assertThat(landed).hasSize(15).doesNotContain("m5");
    }
}
