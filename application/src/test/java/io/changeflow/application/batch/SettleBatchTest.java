package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.assertMerged;
import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimed;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.FailureKind;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Settlement (design 3.7): close first, re-read, merged wins; one settler wins a race. */
class SettleBatchTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    /** A claimed batch whose merge request is open and waiting for its (running) pipeline. */
    private Batch openBatch(String... subjects) {
        waiting(app, subjects);
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = claimed(app);
        while (batch(app, batch.id()).mergeRequest().isEmpty()) {
            app.queue.runNext();
        }
        return batch(app, batch.id());
    }

    private SettleBatch.Result settleByOperator(long batchId) {
        return app.settleBatch.settle(SettleBatch.Command.byOperator(batchId, "otto", Map.of("reason", "stuck")));
    }

    @Test
    void anOpenMergeRequestIsClosedFirstAndTheMembersWaitAgainWithoutBlame() {
        var batch = openBatch("anna", "ben");
        var mr = batch.mergeRequest().orElseThrow();

        var result = settleByOperator(batch.id());

        assertThat(result).isInstanceOfSatisfying(SettleBatch.Result.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT);
            assertThat(failed.plan()).isInstanceOf(Bisection.Plan.RequeueAll.class);
        });
        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(batch.members()).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
        assertThat(app.audit.about("batch:" + batch.id())).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("SETTLE_BATCH");
            assertThat(entry.parameters()).containsEntry("result", "Failed").containsEntry("reason", "stuck");
        });
    }

    @Test
    void aMergeRacingTheCloseIsSettledAsMerged() {
        var batch = openBatch("cleo", "dora");
        var mr = batch.mergeRequest().orElseThrow();
        app.gitlab.beforeNext("close", () -> app.gitlab.mergeExternally(mr.project(), mr.iid()));

        var result = settleByOperator(batch.id());

        assertThat(result).isInstanceOf(SettleBatch.Result.MergedWins.class);
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertMerged(app, batch.members());
        assertThat(app.metrics.count("batchCompleted", "true")).isEqualTo(1);
    }

    @Test
    void twoSettlersRacingLetExactlyOneWinAndTheLoserWritesNothing() {
        var batch = openBatch("emil", "fay", "gus");
        var second = new AtomicReference<SettleBatch.Result>();
        // the timeout sweep's settlement runs while the operator's is closing the merge request
        app.gitlab.beforeNext("close", () -> second.set(app.settleBatch.settle(
                SettleBatch.Command.bySystem(batch.id(), "it did not finish in time"))));

        var first = settleByOperator(batch.id());

        assertThat(second.get()).isInstanceOf(SettleBatch.Result.Failed.class);
        assertThat(first).isInstanceOf(SettleBatch.Result.AlreadySettled.class);
        assertThat(app.batches.settlements()).isEqualTo(1);
        assertThat(batch.members()).allSatisfy(id -> {
            assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(app.operations.history(id)).extracting(h -> h.event()).containsOnlyOnce(WorkflowEvent.BATCH_REQUEUED);
        });
        assertThat(app.metrics.count("batchCompleted", "false")).isEqualTo(1);
    }

    @Test
    void settlingAnEndedBatchAgainChangesNothingAndCallsNoOne() {
        var batch = openBatch("hana", "ivan");
        settleByOperator(batch.id());
        var closes = app.gitlab.closes();

        var again = settleByOperator(batch.id());

        assertThat(again).isInstanceOfSatisfying(SettleBatch.Result.AlreadySettled.class,
                settled -> assertThat(settled.batch().status()).isEqualTo(BatchStatus.FAILED));
        assertThat(app.gitlab.closes()).isEqualTo(closes);
        assertThat(app.batches.settlements()).isEqualTo(1);
        assertThat(app.settleBatch.settle(SettleBatch.Command.byOperator(999, "otto", Map.of())))
                .isInstanceOf(SettleBatch.Result.NotFound.class);
    }

    @Test
    void aFailedPipelineOfTheMergeRequestMakesAnOperatorsSettlementDeterministic() {
        var batch = openBatch("jana", "kurt");
        var mr = batch.mergeRequest().orElseThrow();
        app.gitlab.setPipeline(mr.project(), mr.iid(), PipelineStatus.FAILED);

        var result = settleByOperator(batch.id());

        assertThat(result).isInstanceOfSatisfying(SettleBatch.Result.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.DETERMINISTIC);
            assertThat(failed.plan()).isInstanceOf(Bisection.Plan.Split.class);
        });
        assertThat(app.batches.groupOf(batch.members().get(0))).isNotEqualTo(app.batches.groupOf(batch.members().get(1)));
    }

    @Test
    void aCanceledOrManualHeadPipelineBlamesNoMemberOfTheBatch() {
        for (var status : java.util.List.of(PipelineStatus.CANCELED, PipelineStatus.MANUAL)) {
            var batch = openBatch("nora-" + status.name().toLowerCase(java.util.Locale.ROOT),
                    "otis-" + status.name().toLowerCase(java.util.Locale.ROOT));
            var mr = batch.mergeRequest().orElseThrow();
            app.gitlab.setPipeline(mr.project(), mr.iid(), status);

            var result = settleByOperator(batch.id());

            assertThat(result).as(status.name()).isInstanceOfSatisfying(SettleBatch.Result.Failed.class,
                    failed -> assertThat(failed.kind()).isEqualTo(FailureKind.TRANSIENT));
        }
    }

    @Test
    void gitLabUnreachableAnswersRetryLaterAndChangesNothing() {
        var batch = openBatch("lena", "max");
        app.gitlab.failNext("get", ExternalCallException.status("gitlab", 503, "Service Unavailable"));

        var result = settleByOperator(batch.id());

        assertThat(result).isInstanceOf(SettleBatch.Result.RetryLater.class);
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(batch.members()).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCHED));
    }

    @Test
    void aMergeRequestOpenedAfterTheBatchWasSettledIsClosedByTheStepThatOpenedIt() {
        waiting(app, "nils", "olga");
        var batch = claimed(app);
        // the operator settles right while the batch step is opening the merge request
        app.gitlab.beforeNext("open", () -> settleByOperator(batch.id()));

        app.queue.runUntilIdle();

        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        var mr = batch(app, batch.id()).mergeRequest().orElseThrow();
        assertThat(app.gitlab.find(FakeTargets.PROJECT, mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(batch.members()).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
    }
}
