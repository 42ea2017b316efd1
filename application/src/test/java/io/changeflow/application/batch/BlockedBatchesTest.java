package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.assertSucceeded;
import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimedAndRun;
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
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5: a BLOCKED batch whose settle gave up (GitLab errors, its watch lost) never holds its partition's
 * slot forever: the batch sweep settles it again at every run and, past the batch timeout, settles it as a last try
 * whatever step it still holds, abandoning it when it still cannot be settled (FAILED, every member failed with the
 * reason), so the next round claims again. The tests with a live watch run the production defaults minute by minute.
 */
class BlockedBatchesTest {

    /** {@code changeflow.batch.sweep-interval}'s default. */
    private static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

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

    /** Blocked (its pipeline pending past the pipeline timeout) with its watch alive: the batch step looks again later. */
    private Batch blockedWatched() {
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = runWhileRunning(app, claimed(app));
        assertThat(batch.status()).isEqualTo(BatchStatus.BLOCKED);
        assertThat(app.queue.isScheduled(StepKind.BATCH, String.valueOf(batch.id()))).as("its watch is alive").isTrue();
        return batch;
    }

    /**
     * Production as time passes, one minute (the default {@code changeflow.batch.sweep-interval}) at a time: the steps
     * due, the batch sweep, the steps it scheduled; until {@code until} or until the batch ended. When it ended.
     */
    private Optional<Instant> runEveryMinuteUntil(long batchId, Instant until, Runnable atEveryMinute) {
        while (app.clock.instant().isBefore(until)) {
            atEveryMinute.run();
            app.queue.runDue();
            sweep();
            app.queue.runDue();
            if (batch(app, batchId).status().isTerminal()) {
                return Optional.of(app.clock.instant());
            }
            app.clock.advance(SWEEP_INTERVAL);
        }
        return Optional.empty();
    }

    private void gitLabAnswers5xx() {
        app.gitlab.beforeEveryCall(() -> {
            throw unavailable();
        });
    }

    private MergeRequestState mergeRequestState(long batchId) {
        var mr = batch(app, batchId).mergeRequest().orElseThrow();
        return app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state();
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

    @Test
    void aBlockedBatchWhosePipelineHangsUnderGitLabErrorsFreesItsSlotAtTheBatchTimeoutAndMergesNothing() {
        var ids = waiting(app, "sara", "timo");
        var batch = blockedWatched();
        waiting(app, "ulla");
        gitLabAnswers5xx();
        var timeout = batch.createdAt().plus(app.batchPolicy.timeout());

        var ended = runEveryMinuteUntil(batch.id(), timeout.plus(SWEEP_INTERVAL.multipliedBy(3)), () -> { });

        assertThat(ended).as("the slot is freed by the batch timeout plus one sweep interval, with production timings")
                .hasValueSatisfying(at -> assertThat(at).isAfter(timeout).isBeforeOrEqualTo(timeout.plus(SWEEP_INTERVAL)));
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(ids).allSatisfy(id -> {
            app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED, Hint.CONTACT_MAINTAINERS);
            assertThat(app.op(id).detail()).contains("could not be settled").contains("unknown");
        });
        assertThat(app.gitlab.merges()).as("nothing of the abandoned batch merged").isZero();

        assertThat(app.gitlab.mergeCalls()).as("nor was a merge asked for").isZero();

        app.gitlab.beforeEveryCall(null);
        var settled = batch(app, batch.id());
        app.queue.runUntilIdle();
        assertThat(batch(app, batch.id())).as("no step of it writes anything afterwards").isEqualTo(settled);
        assertThat(ids).allSatisfy(id -> app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED,
                Hint.CONTACT_MAINTAINERS));
        assertThat(app.gitlab.merges()).isZero();
        assertThat(round(app)).as("the slot is free").isInstanceOf(RunBatchRound.Result.Claimed.class);
    }

    @Test
    void aBlockedBatchWhoseMergeRequestMergedJustBeforeTheTimeoutIsSettledMergedWhenGitLabAnswersAgain() {
        var ids = waiting(app, "vera", "walt");
        var batch = blockedWatched();
        gitLabAnswers5xx();
        var timeout = batch.createdAt().plus(app.batchPolicy.timeout());
        var mr = batch(app, batch.id()).mergeRequest().orElseThrow();

        assertThat(runEveryMinuteUntil(batch.id(), timeout.minus(SWEEP_INTERVAL), () -> { })).isEmpty();
        app.gitlab.mergeExternally(mr.project(), mr.iid());
        var ended = runEveryMinuteUntil(batch.id(), timeout.plus(SWEEP_INTERVAL.multipliedBy(3)), () -> {
            if (!app.clock.instant().isBefore(timeout)) {
                app.gitlab.beforeEveryCall(null);
            }
        });

        assertThat(ended).hasValueSatisfying(at -> assertThat(at).isBeforeOrEqualTo(timeout.plus(SWEEP_INTERVAL)));
        assertSucceeded(app, batch, ids);
        assertThat(app.gitlab.mergeCalls()).as("merged by the person only").isZero();
        app.queue.runUntilIdle();
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(app.batches.settlements()).as("settled once").isEqualTo(1);
        assertThat(app.batches.active()).isEmpty();
    }

    @Test
    void aBlockedBatchWhosePipelineHangsWithGitLabAnsweringIsSettledAtTheBatchTimeoutAndItsMembersWaitAgain() {
        var ids = waiting(app, "xena", "yann");
        var batch = blockedWatched();
        var timeout = batch.createdAt().plus(app.batchPolicy.timeout());

        var ended = runEveryMinuteUntil(batch.id(), timeout.plus(SWEEP_INTERVAL.multipliedBy(3)), () -> { });

        assertThat(ended).as("settled at the batch timeout, not at the pending deadline (%s)",
                        app.policy.pendingGiveUpAfter())
                .hasValueSatisfying(at -> assertThat(at).isAfter(timeout).isBeforeOrEqualTo(timeout.plus(SWEEP_INTERVAL)));
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(mergeRequestState(batch.id())).isEqualTo(MergeRequestState.CLOSED);
        assertThat(ids).as("blamed on no one: they wait for a later round")
                .allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
        var settled = batch(app, batch.id());
        assertThat(app.queue.run(StepKind.BATCH, String.valueOf(batch.id()))).as("the watch it still held").isTrue();
        assertThat(batch(app, batch.id())).as("the watch writes nothing").isEqualTo(settled);
        assertThat(app.gitlab.merges()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();

        app.clock.advance(app.batchPolicy.transientRetry().backoff().delayBefore(1));
        var next = claimedAndRun(app);
        assertThat(next.members()).containsExactlyInAnyOrderElementsOf(ids);
    }
}
