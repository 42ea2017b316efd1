package io.changeflow.domain.batch;

import java.util.List;
import java.util.Objects;

/**
 * What to do with the members of a failed batch, as merge queues (bors-ng, Mergify) do: a
 * deterministic failure splits the batch into halves that are retried separately, so the good
 * changes still land and the culprit ends alone; a transient failure requeues everyone as they were.
 * The number of splits of one lineage is capped.
 */
public final class Bisection {

    /** The plan for the members. */
    public sealed interface Plan<T> {
        /** Requeue all members unchanged (same group, same depth). */
        record RequeueAll<T>(List<T> members) implements Plan<T> {}

        /** Requeue as two groups retried separately, each at {@code depth}. */
        record Split<T>(List<T> firstHalf, List<T> secondHalf, int depth) implements Plan<T> {}

        /** A batch of one failed deterministically: this member is the cause. */
        record Blame<T>(T culprit) implements Plan<T> {}

        /** The split limit is reached: fail every member (the maintainers look at them). */
        record GiveUp<T>(List<T> members) implements Plan<T> {}
    }

    private Bisection() {
    }

    /**
     * @param members   the failed batch's members, in claim order
     * @param depth     how many splits led to this batch (0 for a batch of fresh requests)
     * @param maxSplits the cap on depth; at the cap a failing group gives up instead of splitting
     */
    public static <T> Plan<T> plan(List<T> members, int depth, int maxSplits, FailureKind kind) {
        Objects.requireNonNull(members, "members");
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a batch has at least one member");
        }
        if (kind == FailureKind.TRANSIENT) {
            return new Plan.RequeueAll<>(List.copyOf(members));
        }
        if (members.size() == 1) {
            return new Plan.Blame<>(members.getFirst());
        }
        if (depth >= maxSplits) {
            return new Plan.GiveUp<>(List.copyOf(members));
        }
        var middle = (members.size() + 1) / 2;
        return new Plan.Split<>(List.copyOf(members.subList(0, middle)), List.copyOf(members.subList(middle, members.size())),
                depth + 1);
    }
}
