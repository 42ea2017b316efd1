package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.PARTITION;
import static io.changeflow.application.batch.Batching.round;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Batch rounds: the pre-check, the slot, the durable batch step, partitions. */
class RunBatchRoundTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void anEmptyWaitingSetEndsTheRoundAtThePreCheckWithoutAnyClaimTransaction() {
        assertThat(round(app)).isEqualTo(new RunBatchRound.Result.NothingToClaim());

        assertThat(app.batches.claims()).isZero();
        assertThat(app.batches.all()).isEmpty();
        assertThat(app.queue.pending()).isEmpty();
    }

    @Test
    void aClaimedRoundSchedulesTheDurableBatchStepForItsBatch() {
        var ids = waiting(app, "anna", "ben", "cleo");

        var result = round(app);

        assertThat(result).isInstanceOf(RunBatchRound.Result.Claimed.class);
        var claimed = (RunBatchRound.Result.Claimed) result;
        assertThat(claimed.members()).containsExactlyElementsOf(ids);
        assertThat(claimed.scheduled()).isTrue();
        assertThat(app.queue.pending(StepKind.BATCH, String.valueOf(claimed.batchId()))).isPresent();
        assertThat(ids).allSatisfy(id -> {
            app.assertState(id, BindingStatus.BATCHED, StepStatus.BATCH_CLAIMED);
            assertThat(app.op(id).batchId()).contains(claimed.batchId());
        });
    }

    @Test
    void scheduledAndManualRoundsOverlappingAnswerSlotOccupied() {
        waiting(app, "dora", "emil");
        var scheduled = round(app);
        waiting(app, "fay");

        var manual = app.batchRound.round(RunBatchRound.Command.byOperator(PARTITION, "otto", Map.of("why", "urgent")));

        assertThat(scheduled).isInstanceOf(RunBatchRound.Result.Claimed.class);
        assertThat(manual).isEqualTo(new RunBatchRound.Result.SlotOccupied());
        assertThat(app.batches.active()).hasSize(1);
        assertThat(app.audit.about("partition:" + PARTITION)).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("BATCH_ROUND");
            assertThat(entry.parameters()).containsEntry("result", "SlotOccupied").containsEntry("why", "urgent");
        });
    }

    @Test
    void admissionContinuesWhileABatchRunsAndTheNextRoundTakesTheNewcomers() {
        var first = waiting(app, "gus");
        var batch = Batching.claimed(app);
        var newcomer = waiting(app, "hana");

        assertThat(app.batches.isWaiting(newcomer)).isTrue();
        app.queue.runUntilIdle();

        assertThat(Batching.batch(app, batch.id()).status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(app.op(first).binding()).contains(BindingStatus.MERGED);
        var next = Batching.claimed(app);
        assertThat(next.members()).containsExactly(newcomer);
    }

    @Test
    void twoPartitionsRunABatchEachAtOnceButNeverTwoInOnePartition() {
        var other = TargetKey.of("ci-runners");
        app.targets.add(new Target(other, "CI runners", "Register CI runners", FakeTargets.PROJECT, "grants/ci-runners.txt",
                true, "ci").withAskFor(AskPolicy.ANYONE));
        waiting(app, "ivan");
        var inOther = waiting(app, other, "jana");

        var results = app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());

        // every grant file also has its removal round (issue 18); nothing is due for removal here
        var removals = app.targets.all().stream().map(Target::removalPartition).sorted().toList();
        assertThat(results.keySet()).containsExactly(java.util.stream.Stream.concat(
                java.util.stream.Stream.of("ci", PARTITION), removals.stream()).toArray(String[]::new));
        assertThat(results.get("ci")).isInstanceOf(RunBatchRound.Result.Claimed.class);
        assertThat(results.get(PARTITION)).isInstanceOf(RunBatchRound.Result.Claimed.class);
        removals.forEach(r -> assertThat(results.get(r)).isEqualTo(new RunBatchRound.Result.NothingToClaim()));
        assertThat(app.batches.active()).extracting(b -> b.partition()).containsExactlyInAnyOrder("ci", PARTITION);
        waiting(app, other, "kurt");
        assertThat(app.batchRound.round(RunBatchRound.Command.scheduled("ci"))).isEqualTo(new RunBatchRound.Result.SlotOccupied());

        app.queue.runUntilIdle();
        assertThat(app.op(inOther).binding()).contains(BindingStatus.MERGED);
        assertThat(app.batches.active()).isEmpty();
    }

    @Test
    void aFullWorkQueueFailsTheClaimedBatchAtOnceSoItsMembersWaitAgainAndTheSlotIsFree() {
        var ids = waiting(app, "lena", "max");
        app.queue.capacity(0);

        var result = round(app);

        assertThat(result).isInstanceOf(RunBatchRound.Result.Claimed.class);
        assertThat(((RunBatchRound.Result.Claimed) result).scheduled()).isFalse();
        assertThat(app.batches.active()).isEmpty();
        assertThat(ids).allSatisfy(id -> {
            assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(app.batches.isWaiting(id)).isTrue();
        });
        app.queue.capacity(Integer.MAX_VALUE);
        assertThat(round(app)).isInstanceOf(RunBatchRound.Result.Claimed.class);
    }

    @Test
    void aRoundTakesAtMostTheConfiguredNumberOfRequests() {
        var small = new InMemoryChangeflow(WorkflowPolicy.defaults(),
                new BatchPolicy(2, 4, BatchPolicy.DEFAULT_TIMEOUT, BatchPolicy.DEFAULT_LOST_TASK_AFTER));
        var ids = waiting(small, "nils", "olga", "paul");

        var first = Batching.claimed(small);

        assertThat(first.members()).containsExactly(ids.get(0), ids.get(1));
        assertThat(small.batches.isWaiting(ids.get(2))).isTrue();
    }
}
