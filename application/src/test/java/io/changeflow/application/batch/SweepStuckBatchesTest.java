package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.assertSucceeded;
import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimed;
import static io.changeflow.application.batch.Batching.claimedAndRun;
import static io.changeflow.application.batch.Batching.round;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A crashed instance's batch is finished or settled, never leaked. */
class SweepStuckBatchesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    /** A batch whose merge request is open; then its instance crashes and the step's task is lost. */
    private Batch crashedMidBatch(String... subjects) {
        waiting(app, subjects);
        var batch = claimed(app);
        while (batch(app, batch.id()).mergeRequest().isEmpty()) {
            app.queue.runNext();
        }
        app.queue.lose(StepKind.BATCH, String.valueOf(batch.id()));
        return batch(app, batch.id());
    }

    private SweepStuckBatches.Result sweep() {
        return app.sweepBatches.sweep(new SweepStuckBatches.Command());
    }

    @Test
    void aCrashedBatchOlderThanTheTimeoutIsSettledAndItsSlotFreed() {
        var batch = crashedMidBatch("anna", "ben");
        waiting(app, "cleo");
        assertThat(round(app)).isEqualTo(new RunBatchRound.Result.SlotOccupied());
        app.clock.advance(app.batchPolicy.timeout().plusMinutes(1));

        assertThat(sweep()).isEqualTo(new SweepStuckBatches.Result(1, 0));
        app.queue.runUntilIdle();

        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(batch.members()).allSatisfy(id -> {
            assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(app.batches.isWaiting(id)).isTrue();
        });
        // a transient failure: its members back off first, so the next round would take only the newcomer
        app.clock.advance(app.batchPolicy.transientRetry().backoff().delayBefore(1));
        var next = claimedAndRun(app);
        assertThat(batch(app, next.id()).status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(next.members()).containsAll(batch.members()).hasSize(3);
    }

    @Test
    void aBatchThatLostItsStepIsResumedAndFinishesWhereItStopped() {
        var batch = crashedMidBatch("dora", "emil");
        app.clock.advance(app.batchPolicy.lostTaskAfter().plusMinutes(1));

        assertThat(sweep()).isEqualTo(new SweepStuckBatches.Result(0, 1));
        app.queue.runUntilIdle();

        assertSucceeded(app, batch, batch.members());
        assertThat(app.gitlab.opens()).as("the merge request is reused").isEqualTo(1);
    }

    @Test
    void aBatchWhoseStepIsAliveIsLeftToItUntilTheTimeout() {
        waiting(app, "fay");
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = claimed(app);
        app.queue.runNext();
        app.clock.advance(Duration.ofMinutes(15));

        assertThat(sweep()).isEqualTo(new SweepStuckBatches.Result(0, 0));
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.RUNNING);
    }

    @Test
    void settlingAStuckBatchWhileItsStepIsAliveStopsTheStep() {
        waiting(app, "gus", "hana");
        var batch = claimed(app);
        app.queue.runNext();
        app.batches.age(batch.id(), app.batchPolicy.timeout().plusMinutes(1));

        assertThat(sweep().settling()).isEqualTo(1);
        app.queue.runUntilIdle();

        var settled = batch(app, batch.id());
        assertThat(settled.status()).isEqualTo(BatchStatus.FAILED);
        var mr = settled.mergeRequest().orElseThrow();
        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.queue.ran()).filteredOn(step -> step.kind() == StepKind.BATCH).hasSize(2);
        assertThat(app.batches.settlements()).isEqualTo(1);
        assertThat(app.batches.active()).isEmpty();
    }
}
