package io.changeflow.application.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.util.ArrayList;
import java.util.List;

/** Drives requests of a batchable target into the waiting set and batch rounds through the fakes. */
final class Batching {

    static final String PARTITION = Target.DEFAULT_PARTITION;

    private Batching() {
    }

    /**
     * A request for {@code subject} on {@code target}, approved: it waits in the waiting set. Runs the
     * queue only until its approval was submitted (a running batch may take a step meanwhile).
     */
    static OperationId waiting(InMemoryChangeflow app, TargetKey target, String subject) {
        var id = app.submitAccepted(target, subject);
        while (app.queue.pending(StepKind.SUBMIT_APPROVAL, id.value()).isPresent()) {
            app.queue.runNext();
        }
        app.decide(id, Decision.APPROVED);
        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.batches.isWaiting(id)).isTrue();
        return id;
    }

    static OperationId waiting(InMemoryChangeflow app, String subject) {
        return waiting(app, FakeTargets.BATCHABLE, subject);
    }

    static List<OperationId> waiting(InMemoryChangeflow app, String... subjects) {
        var ids = new ArrayList<OperationId>();
        for (var subject : subjects) {
            ids.add(waiting(app, subject));
        }
        return ids;
    }

    /** One scheduled round in the default partition. */
    static RunBatchRound.Result round(InMemoryChangeflow app) {
        return app.batchRound.round(RunBatchRound.Command.scheduled(PARTITION));
    }

    /** A claimed round: its batch. */
    static Batch claimed(InMemoryChangeflow app) {
        var result = round(app);
        assertThat(result).isInstanceOf(RunBatchRound.Result.Claimed.class);
        return app.batches.find(((RunBatchRound.Result.Claimed) result).batchId()).orElseThrow();
    }

    /** A claimed round, its steps run until the queue is idle: its batch as claimed. */
    static Batch claimedAndRun(InMemoryChangeflow app) {
        var batch = claimed(app);
        app.queue.runUntilIdle();
        return batch;
    }

    /** Rounds, each run to the end, until nothing waits; the batches they made, oldest first. */
    static List<Batch> roundsUntilNothingWaits(InMemoryChangeflow app) {
        var batches = new ArrayList<Batch>();
        for (var rounds = 0; rounds < 50; rounds++) {
            var result = round(app);
            if (result instanceof RunBatchRound.Result.NothingToClaim) {
                return batches;
            }
            assertThat(result).isInstanceOf(RunBatchRound.Result.Claimed.class);
            app.queue.runUntilIdle();
            batches.add(app.batches.find(((RunBatchRound.Result.Claimed) result).batchId()).orElseThrow());
        }
        throw new AssertionError("the waiting set did not empty within 50 rounds");
    }

    /** Runs steps one by one while {@code batch} is RUNNING; the batch as it stopped. */
    static Batch runWhileRunning(InMemoryChangeflow app, Batch batch) {
        while (batch(app, batch.id()).status() == BatchStatus.RUNNING) {
            app.queue.runNext();
        }
        return batch(app, batch.id());
    }

    /** Every one of {@code ids} is merged. */
    static void assertMerged(InMemoryChangeflow app, List<OperationId> ids) {
        assertThat(ids).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.MERGED));
    }

    /** {@code batch} succeeded and every one of {@code ids} is merged. */
    static void assertSucceeded(InMemoryChangeflow app, Batch batch, List<OperationId> ids) {
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertMerged(app, ids);
    }

    static Batch batch(InMemoryChangeflow app, long id) {
        return app.batches.find(id).orElseThrow();
    }
}
