package io.changeflow.domain.batch;

import static io.changeflow.propertytesting.Generators.ints;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BisectionProperties {

    private static List<Integer> members(int size) {
        return IntStream.range(0, size).boxed().toList();
    }

    /** Three whole numbers, each from its own range. */
    record Three(int a, int b, int c) {

        static Generator<Three> of(int minA, int maxA, int minB, int maxB, int minC, int maxC) {
            return s -> new Three(ints(minA, maxA).generate(s), ints(minB, maxB).generate(s), ints(minC, maxC).generate(s));
        }
    }

    @Test
    void splitHalvesCoverEveryMemberOnceInOrderOneLevelDeeper() {
        Property.forAll(Three.of(2, 500, 0, 20, 1, 20)).tries(1000).check(t -> {
            int size = t.a(), depth = t.b(), extraSplits = t.c();
            var members = members(size);
            var plan = Bisection.plan(members, depth, depth + extraSplits, FailureKind.DETERMINISTIC);
            assertThat(plan).isInstanceOf(Bisection.Plan.Split.class);
            var split = (Bisection.Plan.Split<Integer>) plan;
            assertThat(split.depth()).isEqualTo(depth + 1);
            var joined = new ArrayList<>(split.firstHalf());
            joined.addAll(split.secondHalf());
            assertThat(joined).isEqualTo(members);
            assertThat(split.firstHalf()).isNotEmpty();
            assertThat(split.secondHalf()).isNotEmpty();
            assertThat(split.firstHalf().size() - split.secondHalf().size()).isBetween(0, 1);
        });
    }

    @Test
    void atTheCapEveryMemberGivesUpTogether() {
        Property.forAll(Three.of(2, 500, 0, 20, 0, 5)).tries(1000).check(t -> {
            int size = t.a(), maxSplits = t.b(), beyond = t.c();
            var plan = Bisection.plan(members(size), maxSplits + beyond, maxSplits, FailureKind.DETERMINISTIC);
            assertThat(plan).isEqualTo(new Bisection.Plan.GiveUp<>(members(size)));
        });
    }

    @Test
    void transientFailuresRequeueEveryoneUnchanged() {
        Property.forAll(Three.of(1, 500, 0, 20, 0, 20)).tries(1000).check(t -> {
            int size = t.a(), depth = t.b(), maxSplits = t.c();
            assertThat(Bisection.plan(members(size), depth, maxSplits, FailureKind.TRANSIENT))
                    .isEqualTo(new Bisection.Plan.RequeueAll<>(members(size)));
        });
    }

    /**
     * Bisecting a batch with one broken change (groups containing it fail, others merge) isolates it
     * within ceil(log2(size)) splits, and every good change lands.
     */
    @Test
    void repeatedBisectionIsolatesTheCulpritAndLandsEveryGoodChange() {
        Property.forAll(ints(1, 300).zip(ints(0, 299), List::of)).tries(1000).check(sizeAndIndex -> {
            int size = sizeAndIndex.get(0), culpritIndex = sizeAndIndex.get(1);
            var culprit = culpritIndex % size;
            var maxSplits = 32 - Integer.numberOfLeadingZeros(Math.max(1, size - 1)); // ceil(log2(size))
            var landed = new ArrayList<Integer>();
            var blamed = new ArrayList<Integer>();
            var queue = new ArrayDeque<Bisection.Plan.Split<Integer>>();
            queue.add(new Bisection.Plan.Split<>(members(size), List.of(), 0));
            while (!queue.isEmpty()) {
                var group = queue.poll();
                for (var half : List.of(group.firstHalf(), group.secondHalf())) {
                    if (half.isEmpty()) {
                        continue;
                    }
                    if (!half.contains(culprit)) {
                        landed.addAll(half);
                        continue;
                    }
                    switch (Bisection.plan(half, group.depth(), maxSplits, FailureKind.DETERMINISTIC)) {
                        case Bisection.Plan.Split<Integer> split -> queue.add(split);
                        case Bisection.Plan.Blame<Integer> blame -> blamed.add(blame.culprit());
                        case Bisection.Plan.GiveUp<Integer> giveUp -> throw new AssertionError("gave up on " + giveUp);
                        case Bisection.Plan.RequeueAll<Integer> requeue -> throw new AssertionError("requeued " + requeue);
                    }
                }
            }
            assertThat(blamed).containsExactly(culprit);
            assertThat(landed).hasSize(size - 1).doesNotContain(culprit).doesNotHaveDuplicates();
        });
    }
}
