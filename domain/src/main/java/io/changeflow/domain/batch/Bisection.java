package io.changeflow.domain.batch;

import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What to do with the members of a failed batch, as merge queues (bors-ng, Mergify) do: a
 * deterministic failure splits the batch into halves that are retried separately, so the good
 * changes still land and the culprit ends alone; a transient failure requeues everyone as they were.
 * The number of splits of one lineage is capped.
 */
public final class Bisection {

    /**
     * The plan for the members. Each plan moves all the members it names by one event, {@link #memberEvent()}: the one
     * rule the persistence adapter and the test fakes apply when they settle a failed batch.
     */
    public sealed interface Plan<T> {
        /** Every member the plan names, in claim order (a split's first half before its second). */
        List<T> members();

        /** The event each member takes. */
        WorkflowEvent memberEvent();

        /** Requeue all members unchanged (same group, same depth); each member BATCH_REQUEUED. */
        record RequeueAll<T>(List<T> members) implements Plan<T> {
            @Override
            public WorkflowEvent memberEvent() {
                return WorkflowEvent.BATCH_REQUEUED;
            }
        }

        /** Requeue as two groups retried separately, each at {@code depth}; each member BATCH_REQUEUED. */
        record Split<T>(List<T> firstHalf, List<T> secondHalf, int depth) implements Plan<T> {
            @Override
            public List<T> members() {
                var all = new ArrayList<T>(firstHalf.size() + secondHalf.size());
                all.addAll(firstHalf);
                all.addAll(secondHalf);
                return List.copyOf(all);
            }

            @Override
            public WorkflowEvent memberEvent() {
                return WorkflowEvent.BATCH_REQUEUED;
            }

            /** The bisection group the first half of batch {@code batchId} waits in. */
            public static String firstGroup(long batchId) {
                return "b" + batchId + "a";
            }

            /** The bisection group the second half of batch {@code batchId} waits in. */
            public static String secondGroup(long batchId) {
                return "b" + batchId + "b";
            }
        }

        /** A batch of one failed deterministically: this member is the cause; it takes BATCH_CULPRIT_FAILED. */
        record Blame<T>(T culprit) implements Plan<T> {
            @Override
            public List<T> members() {
                return List.of(culprit);
            }

            @Override
            public WorkflowEvent memberEvent() {
                return WorkflowEvent.BATCH_CULPRIT_FAILED;
            }
        }

        /** The split limit is reached: fail every member (the maintainers look at them); each BATCH_GAVE_UP. */
        record GiveUp<T>(List<T> members) implements Plan<T> {
            @Override
            public WorkflowEvent memberEvent() {
                return WorkflowEvent.BATCH_GAVE_UP;
            }
        }
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
