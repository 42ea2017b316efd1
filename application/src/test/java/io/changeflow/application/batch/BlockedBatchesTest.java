package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimed;
import static io.changeflow.application.batch.Batching.round;
import static io.changeflow.application.batch.Batching.runWhileRunning;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5: a BLOCKED batch whose settle gave up (GitLab errors, its watch lost) never holds its partition's
 * slot forever: the batch sweep settles it again at every run and, blocked past the batch timeout, abandons it when it
 * still cannot be settled (FAILED, every member failed with the reason), so the next round claims again.
 */
class BlockedBatchesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private static ExternalCallException unavailable() {
        return ExternalCallException.status("gitlab", 502, "Bad Gateway");
    }

    /** Blocked (its pipeline pending past the timeout) and its watch lost: nobody settles it any more. */
    private Batch blockedAndForgotten() {
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = runWhileRunning(app, claimed(app));
        assertThat(batch.status()).isEqualTo(BatchStatus.BLOCKED);
        app.queue.lose(StepKind.BATCH, String.valueOf(batch.id()));
        return batch;
    }

    private SweepStuckBatches.Result sweep() {
        return app.sweepBatches.sweep(new SweepStuckBatches.Command());
    }

    @Test
    void aBlockedBatchUnderGitLabErrorsIsRetriedAtEverySweepAndAbandonedPastTheTimeoutFreeingItsSlot() {
        var ids = waiting(app, "nils", "olga");
        var batch = blockedAndForgotten();
        app.gitlab.failNext("get", 10_000, BlockedBatchesTest::unavailable);
        waiting(app, "paul");

        assertThat(sweep().unblocking()).as("not quiet long enough yet").isZero();
        app.clock.advance(app.batchPolicy.lostTaskAfter().plusMinutes(1));
        assertThat(sweep().unblocking()).isEqualTo(1);
        assertThat(sweep().unblocking()).as("its settle step is scheduled").isZero();
        app.queue.runUntilIdle();
        assertThat(batch(app, batch.id()).status()).as("GitLab cannot say: still blocked").isEqualTo(BatchStatus.BLOCKED);
        assertThat(round(app)).isEqualTo(new RunBatchRound.Result.SlotOccupied());

        app.clock.advance(app.batchPolicy.lostTaskAfter().plusMinutes(1));
        assertThat(sweep().unblocking()).as("tried again").isEqualTo(1);
        app.queue.runUntilIdle();
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.BLOCKED);

        app.clock.advance(app.batchPolicy.timeout());
        assertThat(sweep().unblocking()).isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(batch(app, batch.id()).status()).as("abandoned past the timeout").isEqualTo(BatchStatus.FAILED);
        assertThat(ids).allSatisfy(id -> {
            app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED, Hint.CONTACT_MAINTAINERS);
            assertThat(app.op(id).detail()).contains("could not be settled").contains("unknown");
        });
        app.gitlab.clearFailures("get");
        assertThat(round(app)).as("the slot is free").isInstanceOf(RunBatchRound.Result.Claimed.class);
    }

    @Test
    void aBlockedBatchWhoseWatchWasLostIsSettledByTheSweepOnceGitLabAnswers() {
        var ids = waiting(app, "quin", "rosa");
        var batch = blockedAndForgotten();
        app.clock.advance(app.batchPolicy.lostTaskAfter().plusMinutes(1));

        assertThat(sweep().unblocking()).isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(ids).as("blamed on no one: they wait for a later round")
                .allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
        assertThat(app.gitlab.get(batch(app, batch.id()).mergeRequest().orElseThrow().project(),
                batch(app, batch.id()).mergeRequest().orElseThrow().iid()).state())
                .isEqualTo(io.changeflow.domain.mr.MergeRequestState.CLOSED);
    }
}
