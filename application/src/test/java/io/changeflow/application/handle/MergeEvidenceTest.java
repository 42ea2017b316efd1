package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Merge only on evidence (issue 13.1, 21.1, 21.4): immediately before the merge the merge request's current
 * head, its branch's real head and that head's own pipeline are read; GitLab's "pipelines must succeed" is off
 * in these tests, as in many projects, so nothing but the workflow's own evidence keeps a failed head out.
 */
class MergeEvidenceTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    {
        app.gitlab.pipelinesNeedNotPass();
    }

    /** Submits, approves and runs until the handle step is next: the merge request exists, its pipeline passed. */
    private OperationId readyToHandle(String subject) {
        return app.approvedUntilHandleIsNext(subject);
    }

    /** {@link #readyToHandle}; from now on GitLab reads the merge request's detailed merge status as {@code status}. */
    private OperationId readyButBlockedBy(String subject, String status) {
        var id = readyToHandle(subject);
        var mr = app.mr(id);
        app.gitlab.forceDetailedStatus(mr.project(), mr.iid(), status);
        return id;
    }

    private RetriggerStep.Result retrigger(OperationId id) {
        return app.retrigger(id, "asked");
    }

    @Test
    void aRetriggerAfterTheRegeneratedHeadsPipelineFailedNeverMergesIt() {
        // create-first: the MR's pipeline passes; main changes the same file; approved; regenerated; its pipeline fails
        app.config.set(Settings.APPROVE_FIRST, "false");
        app.gitlab.nextNeedRebase(true, PipelineStatus.FAILED);
        var id = app.approvedAndRun("rita");
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_PIPELINE_FAILED);
        assertThat(app.gitlab.rewrites()).isEqualTo(1);

        var result = retrigger(id);
        app.queue.runUntilIdle();

        assertThat(result).isInstanceOf(RetriggerStep.Result.Retriggered.class);
        assertThat(app.gitlab.merges()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();
        app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_PIPELINE_FAILED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
    }

    @Test
    void aRetriggerMergesOnceThePipelineOfTheSameHeadWasRunAgainAndPassed() {
        app.gitlab.nextNeedRebase(true, PipelineStatus.FAILED);
        var id = readyToHandle("sara");
        app.queue.runUntilIdle();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_PIPELINE_FAILED);
        var mr = app.mr(id);
        app.gitlab.setPipeline(mr.project(), mr.iid(), PipelineStatus.PASSED);

        retrigger(id);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    @Test
    void theMergeIsRefusedWithoutAPassedPipelineForTheCurrentHead() {
        // someone pushes to the branch after the pipeline passed: the new head's pipeline fails
        var id = app.pushedToWhenHandleIsNext("tom", PipelineStatus.FAILED);

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_PIPELINE_FAILED);
    }

    @Test
    void aHeadWhosePipelineIsStillRunningIsWatchedAndMergedOnlyOnceItPassed() {
        var id = app.pushedToWhenHandleIsNext("uma", PipelineStatus.RUNNING, PipelineStatus.RUNNING, PipelineStatus.PASSED);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.mergeCalls()).isEqualTo(1);
    }

    @Test
    void aPipelineThatDidNotRunIsNeverMergedAndAPersonIsToldWhy() {
        var id = app.pushedToWhenHandleIsNext("vera", PipelineStatus.MANUAL);

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(lastNote(id)).contains("did not run to a result");
    }

    @Test
    void aStaleHeadReadAfterTheRewriteDoesNotCount() {
        // after every push the merge request reports the old head and its passed pipeline for 3 more reads
        app.gitlab.pushLag(3).nextNeedRebase(true, PipelineStatus.FAILED);
        var id = readyToHandle("walt");

        app.queue.runUntilIdle();

        assertThat(app.gitlab.merges()).as("the old head's passed pipeline never counted").isZero();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_PIPELINE_FAILED);
    }

    @Test
    void aStaleHeadReadAfterTheRewriteIsWaitedOutAndTheNewHeadMergedWithItsShaPinned() {
        app.gitlab.pushLag(3).nextNeedRebase(true, PipelineStatus.PASSED);
        var id = readyToHandle("xena");

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.mergeCalls()).as("never a merge attempt with the stale head").isEqualTo(1);
    }

    @Test
    void aLostRewriteAnswerStillReapprovesWhenThePushResetTheApprovals() {
        app.gitlab.resetApprovalsOnPush().nextNeedRebase(true, PipelineStatus.PASSED);
        app.gitlab.loseNextRewriteAnswer();
        var id = readyToHandle("yara");
        var mr = app.mr(id);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rewrites()).as("read back, not pushed again").isEqualTo(1);
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    @Test
    void notApprovedIsAnsweredByApprovingAgain() {
        var id = readyToHandle("zoe");
        var mr = app.mr(id);
        app.gitlab.nextMergeResults(MergeResult.NOT_APPROVED);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).as("a rebase cannot help an approval").isZero();
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    @Test
    void notApprovedAfterTheBotsApprovedAgainIsAPersonsJob() {
        var id = readyButBlockedBy("adam", "not_approved");

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(lastNote(id)).contains("approval rules");
    }

    @Test
    void needRebaseAndConflictAreRebasedWithoutAMergeAttempt() {
        app.gitlab.nextNeedRebase(false, PipelineStatus.PASSED);
        var id = readyToHandle("ben");

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).isEqualTo(1);
        assertThat(app.gitlab.mergeCalls()).isEqualTo(1);
    }

    @Test
    void ciStillRunningIsWatchedNotRebased() {
        var id = readyToHandle("carl");
        app.gitlab.nextMergeResults(MergeResult.PIPELINE_RUNNING);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"draft_status", "discussions_not_resolved", "blocked_status", "merge_request_blocked",
            "requested_changes", "not_open", "status_checks_must_pass", "jira_association_missing",
            "security_policy_violations", "commits_status", "merge_time", "locked_paths", "title_regex",
            "something_gitlab_adds_later"})
    void blockingStatusesStopInAStateAPersonActsOnSayingWhat(String detailedMergeStatus) {
        var id = readyButBlockedBy("dora", detailedMergeStatus);
        var mr = app.mr(id);

        app.queue.runUntilIdle();

        assertThat(app.gitlab.merges()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();
        assertThat(app.gitlab.rebases()).isZero();
        app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(lastNote(id)).contains("GitLab refuses to merge merge request !" + mr.iid()).contains("re-trigger");
    }

    @Test
    void aBlockedRequestIsMergedByARetriggerOnceAPersonRemovedTheBlock() {
        var id = readyButBlockedBy("emil", "draft_status");
        var mr = app.mr(id);
        app.queue.runUntilIdle();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.HANDLE_MERGE_BLOCKED);
        app.gitlab.forceDetailedStatus(mr.project(), mr.iid(), null);

        retrigger(id);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void everyDocumentedDetailedMergeStatusHasAnExplicitReading() {
        assertThat(MergeResult.expectedFor("mergeable")).isEmpty();
        assertThat(MergeResult.expectedFor(null)).isEmpty();
        for (var checking : new String[] {"checking", "unchecked", "preparing", "approvals_syncing"}) {
            assertThat(MergeResult.expectedFor(checking)).contains(MergeResult.CANNOT_BE_MERGED_YET);
        }
        assertThat(MergeResult.expectedFor("conflict")).contains(MergeResult.NOT_MERGEABLE);
        assertThat(MergeResult.expectedFor("need_rebase")).contains(MergeResult.NOT_MERGEABLE);
        assertThat(MergeResult.expectedFor("not_approved")).contains(MergeResult.NOT_APPROVED);
        assertThat(MergeResult.expectedFor("ci_must_pass")).contains(MergeResult.PIPELINE_NOT_PASSED);
        assertThat(MergeResult.expectedFor("ci_still_running")).contains(MergeResult.PIPELINE_RUNNING);
        assertThat(MergeResult.expectedFor("draft_status")).contains(MergeResult.BLOCKED);
        assertThat(MergeResult.expectedFor("an_unknown_value")).contains(MergeResult.BLOCKED);
    }

    private String lastNote(OperationId id) {
        return app.operations.history(id).getLast().detail();
    }
}
