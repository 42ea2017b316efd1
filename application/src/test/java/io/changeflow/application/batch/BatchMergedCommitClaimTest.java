package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimed;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 1 for batches: every member of a merged batch is MERGED only when the grant file at the batch merge
 * request's merged commit bears its claim (a grant: exactly its line; a removal: no line of its subject). A member it
 * does not bear stops for a person (HANDLE_FAILED at BATCH_FAILED, CONTACT_MAINTAINERS, the file, commit and line in
 * its note), never MERGED, so no deploy report or reconciliation can make it VALIDATED, EXPIRED or REVOKED; an
 * operator re-admits it (its change is written again) or closes it.
 */
class BatchMergedCommitClaimTest {

    private static final String BATCH_FILE = "grants/" + FakeTargets.BATCHABLE.value() + ".txt";
    private static final String SINGLE_FILE = "grants/" + FakeTargets.SINGLE.value() + ".txt";

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    /** A round of the waiting requests whose batch merge request is open with its pipeline running: the batch. */
    private Batch claimedAndOpened() {
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = claimed(app);
        openWhileItsPipelineRuns(batch);
        return batch(app, batch.id());
    }

    /** A claimed batch whose merge request is open with its pipeline still running (nobody merged it yet). */
    private MergeRequestRef openWhileItsPipelineRuns(Batch batch) {
        while (batch(app, batch.id()).mergeRequest().isEmpty()) {
            assertThat(app.queue.runNext()).as("the batch step runs").isTrue();
        }
        return batch(app, batch.id()).mergeRequest().orElseThrow();
    }

    /** A person rewrites {@code path} on the merge request's branch by {@code edit}, then merges it on GitLab. */
    private void editedAndMergedByAPerson(MergeRequestRef mr, String path, java.util.function.UnaryOperator<String> edit) {
        var onBranch = app.gitlab.fileOn(mr.project(), mr.sourceBranch(), path).orElseThrow();
        app.gitlab.commit(mr.project(), mr.sourceBranch(), "edited by hand",
                List.of(new FileChange(path, edit.apply(onBranch))));
        app.gitlab.mergeExternally(mr.project(), mr.iid());
    }

    private String main(String path) {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", path).orElse("");
    }

    @Test
    void aMemberWhoseLineTheMergedCommitLacksStopsForAPersonWhileTheOthersAreMerged() {
        var anna = waiting(app, "anna");
        var ben = waiting(app, "ben");
        var cleo = waiting(app, "cleo");
        var batch = claimedAndOpened();
        var mr = batch.mergeRequest().orElseThrow();

        editedAndMergedByAPerson(mr, BATCH_FILE, file -> file.replaceAll("(?m)^ben .*\\n", ""));
        app.queue.runUntilIdle();

        assertThat(batch(app, batch.id()).status()).as("its merge request merged").isEqualTo(BatchStatus.SUCCEEDED);
        app.assertState(anna, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        app.assertState(cleo, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        var merged = app.gitlab.mergedCommit(mr.project(), mr.iid()).orElseThrow();
        var op = app.assertState(ben, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("is merged, but " + BATCH_FILE + " at its merged commit " + merged)
                .contains("does not hold the line of ben").contains("not reported so").contains("re-admits");
        assertThat(app.operations.history(ben)).extracting(h -> h.event()).contains(WorkflowEvent.BATCH_GAVE_UP)
                .doesNotContain(WorkflowEvent.BATCH_MERGED);
        assertThat(main(BATCH_FILE)).doesNotContain("ben until=");

        // the way out: an operator re-admits it, the next batch writes its line again, and only then is it merged
        assertThat(app.readmit.readmit(new ReadmitBatchMember.Command(ben.value(), "otto", Map.of())))
                .isInstanceOf(ReadmitBatchMember.Result.Readmitted.class);
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
        Batching.roundsUntilNothingWaits(app);
        app.assertState(ben, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        assertThat(main(BATCH_FILE)).contains("ben until=never op=" + ben.value());
    }

    /**
     * A removal batch whose merge request a person changed to keep one subject's line: that removal is never reported
     * done (a deploy report leaves it alone), the other's is; the line stays on main until an operator re-admits it.
     */
    @Test
    void aRemovalWhoseLineTheMergedCommitStillHoldsIsNeverExpired() {
        var until = app.clock.instant().plus(Duration.ofHours(1));
        var alice = app.grantInEffect("alice", "alice", until);
        app.grantInEffect("bob", "bob", until);
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
        var aliceLine = "alice until=" + until + " op=" + alice.value();
        assertThat(main(SINGLE_FILE)).contains(aliceLine);
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        var aliceRemoval = ownerOf("alice");
        var bobRemoval = ownerOf("bob");
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        var batch = app.batches.find(app.op(aliceRemoval).batchId().orElseThrow()).orElseThrow();
        var mr = openWhileItsPipelineRuns(batch);

        editedAndMergedByAPerson(mr, SINGLE_FILE, file -> file + aliceLine + "\n");
        app.queue.runUntilIdle();
        app.deployed(bobRemoval);

        assertThat(main(SINGLE_FILE)).contains(aliceLine).doesNotContain("bob until=");
        assertThat(app.operations.binding(SubjectId.of("bob"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        var op = app.assertState(aliceRemoval, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("still holds a line of alice").contains("the access was not removed");
        assertThat(app.operations.history(aliceRemoval)).extracting(h -> h.event())
                .doesNotContain(WorkflowEvent.BATCH_MERGED, WorkflowEvent.DEPLOYED);

        assertThat(app.readmit.readmit(new ReadmitBatchMember.Command(aliceRemoval.value(), "otto", Map.of())))
                .isInstanceOf(ReadmitBatchMember.Result.Readmitted.class);
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(aliceRemoval);
        assertThat(main(SINGLE_FILE)).doesNotContain("alice until=");
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
    }

    /** The settlement that finds the merge request merged reads the merged commit too; unreadable, it changes nothing. */
    @Test
    void aSettlementThatFindsTheBatchMergedReadsItsMergedCommitAndRetriesWhenGitLabDoesNotAnswer() {
        var dora = waiting(app, "dora");
        var emil = waiting(app, "emil");
        var batch = claimedAndOpened();
        editedAndMergedByAPerson(batch.mergeRequest().orElseThrow(), BATCH_FILE,
                file -> file.replaceAll("(?m)^emil .*\\n", ""));

        app.gitlab.failNext("mergedCommit", ExternalCallException.status("gitlab", 502, "Bad Gateway"));
        var unreadable = app.settleBatch.settle(SettleBatch.Command.byOperator(batch.id(), "otto", Map.of()));
        assertThat(unreadable).isInstanceOf(SettleBatch.Result.RetryLater.class);
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(app.op(dora).binding()).contains(BindingStatus.BATCHED);

        var settled = app.settleBatch.settle(SettleBatch.Command.byOperator(batch.id(), "otto", Map.of()));

        assertThat(settled).isInstanceOf(SettleBatch.Result.MergedWins.class);
        app.assertState(dora, BindingStatus.MERGED, StepStatus.HANDLE_MERGED);
        app.assertState(emil, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_FAILED, Hint.CONTACT_MAINTAINERS);
        assertThat(batch(app, batch.id()).detail()).contains("does not bear 1 of its 2 changes");
    }

    private OperationId ownerOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId();
    }
}
