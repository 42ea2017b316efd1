package io.changeflow.domain.batch;

import io.changeflow.domain.polling.RetryPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a transient (or unknown) failure of a batch does to its members: each waits again after a backoff
 * by its own failure count, a group that failed before is split, and a member alone past its retries gives
 * up ({@link Bisection.Plan.GiveUp}), so no member can livelock its partition. Design: docs/workflow.md.
 */
public final class TransientRetries {

    /** A member's count of transient failures after this failure, and how long it waits before it may be claimed again. */
    public record Retry(int transientFailures, Duration eligibleAfter) {
        public Retry {
            Objects.requireNonNull(eligibleAfter, "eligibleAfter");
            if (transientFailures < 0 || eligibleAfter.isNegative()) {
                throw new IllegalArgumentException("a retry has a non-negative count and delay");
            }
        }
    }

    /** The plan for the members, and the retry of every member that waits again. */
    public record Outcome<T>(Bisection.Plan<T> plan, Map<T, Retry> retries) {
        public Outcome {
            Objects.requireNonNull(plan, "plan");
            retries = Map.copyOf(retries);
        }
    }

    private TransientRetries() {
    }

    /**
     * @param members        the failed batch's members, in claim order
     * @param depth          the batch's bisection depth (a split goes one deeper)
     * @param failuresBefore each member's transient failures before this one (missing: none)
     * @param policy         how many transient failures a member may retry after, and the backoff
     */
    public static <T> Outcome<T> afterFailure(List<T> members, int depth, Map<T, Integer> failuresBefore,
                                              RetryPolicy policy) {
        Objects.requireNonNull(members, "members");
        Objects.requireNonNull(policy, "policy");
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a batch has at least one member");
        }
        var retries = new LinkedHashMap<T, Retry>();
        if (members.size() == 1) {
            var member = members.getFirst();
            var failures = before(failuresBefore, member) + 1;
            var delay = policy.afterFailure(failures);
            if (delay.isEmpty()) {
                return new Outcome<>(new Bisection.Plan.GiveUp<>(List.copyOf(members)), Map.of());
            }
            retries.put(member, new Retry(failures, delay.get()));
            return new Outcome<>(new Bisection.Plan.RequeueAll<>(List.copyOf(members)), retries);
        }
        var firstFailure = members.stream().allMatch(m -> before(failuresBefore, m) == 0);
        if (firstFailure && policy.maxRetries() >= 1) {
            var delay = policy.backoff().delayBefore(1);
            members.forEach(m -> retries.put(m, new Retry(1, delay)));
            return new Outcome<>(new Bisection.Plan.RequeueAll<>(List.copyOf(members)), retries);
        }
        for (var m : members) {
            var failures = before(failuresBefore, m);
            retries.put(m, new Retry(failures, policy.backoff().delayBefore(Math.max(1, failures))));
        }
        var middle = (members.size() + 1) / 2;
        return new Outcome<>(new Bisection.Plan.Split<>(List.copyOf(members.subList(0, middle)),
                List.copyOf(members.subList(middle, members.size())), depth + 1), retries);
    }

    private static <T> int before(Map<T, Integer> failuresBefore, T member) {
        var count = failuresBefore == null ? null : failuresBefore.get(member);
        return count == null || count < 0 ? 0 : count;
    }
}
