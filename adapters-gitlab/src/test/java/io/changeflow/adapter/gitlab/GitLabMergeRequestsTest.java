package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.sandbox.gitlab.GitLabSimulator;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gitlab4j client against the GitLab simulator over HTTP: the whole merge request life cycle as
 * the author and approval bots, and each GitLab quirk the workflow relies on.
 */
class GitLabMergeRequestsTest extends AgainstSimulator {

    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Duration CHECKING = Duration.ofMillis(300);
    private static final Duration PIPELINE = Duration.ofMillis(600);
    private static final Duration REBASE = Duration.ofMillis(200);

    @BeforeEach
    void newProject() {
        server.faults().clear();
        server.gitlab().setTimings(CHECKING, PIPELINE, REBASE);
        project = server.newProject("platform/test", Map.of("grants/db.txt", "alice\n", "README.md", "# test\n"));
    }

    /**
     * Issue 36 ("our merges queue", and claims read from the merged commit): the merged commit a merge request names,
     * and the file at it; the commits main has that a waiting branch lacks and that changed a file, newest first,
     * with their messages: the merged merge request's own commit (its merge commit took the file from it and is not
     * listed) and a person's commit on main; a commit of another file is not listed.
     */
    @Test
    void listsTheCommitsThatChangedAFileOnMainSinceABranchLeftIt() {
        gitlab.createBranch(project, "changeflow/waiting", "main");
        gitlab.createBranch(project, "changeflow/first", "main");
        gitlab.commit(project, "changeflow/first", "Grant bob\n\nChangeflow-Operation: op-1\n",
                List.of(new FileChange("grants/db.txt", "alice\nbob\n")));
        var first = gitlab.open(project, "changeflow/first", "main", "Grant bob", "Changeflow-Operation: op-1");
        await().atMost(SETTLE).until(() -> statusOf(first.iid()) == PipelineStatus.PASSED);
        gitlab.approve(project, first.iid(), "approval-bot-1");
        gitlab.approve(project, first.iid(), "approval-bot-2");
        assertThat(gitlab.mergedCommit(project, first.iid())).as("not merged yet").isEmpty();
        assertThat(gitlab.merge(project, first.iid(), awaitMergeable(first.iid()).sha())).isEqualTo(MergeResult.MERGED);
        var merged = gitlab.mergedCommit(project, first.iid()).orElseThrow();
        assertThat(gitlab.readFile(project, merged, "grants/db.txt")).as("the file the merge wrote").contains("alice\nbob\n");
        server.gitlab().push(project, "main", Map.of("README.md", "# tidy\n"), "Tidy the readme");
        server.gitlab().push(project, "main", Map.of("grants/db.txt", "alice\nbob\ndora\n"), "A hand edit");

        var commits = gitlab.commitsOnlyOn(project, "main", "changeflow/waiting", "grants/db.txt", 100);

        assertThat(commits).extracting(c -> c.message().lines().findFirst().orElse("")).containsExactly("A hand edit", "Grant bob");
        assertThat(commits.get(1).message()).contains("Changeflow-Operation: op-1");
        assertThat(gitlab.commitsOnlyOn(project, "main", "main", "grants/db.txt", 100)).isEmpty();
        assertThatThrownBy(() -> gitlab.commitsOnlyOn(project, "main", "changeflow/none", "grants/db.txt", 100))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.isTransient()).isFalse());
    }

    /**
     * Issue 33 item 3: GitLab answers a merge done now with the merge request as merged (lib/api/merge_requests.rb), so
     * the answer names the merged commit a read after it gives; a refused merge names none.
     */
    @Test
    void aMergesAnswerNamesTheMergedCommitAReadAfterItGives() {
        var mr = approvedWithPassedPipeline("changeflow/answered", "Grant fay", "alice\nfay\n", "op-8");
        var head = awaitMergeable(mr.iid()).sha();
        var stale = gitlab.mergeWithCommit(project, mr.iid(), "0123456789abcdef0123456789abcdef01234567");
        assertThat(stale.result()).as("another head pinned").isEqualTo(MergeResult.SHA_MISMATCH_OR_LOCKED);
        assertThat(stale.mergedCommit()).isEmpty();

        var answer = gitlab.mergeWithCommit(project, mr.iid(), head);

        assertThat(answer.result()).isEqualTo(MergeResult.MERGED);
        assertThat(answer.mergedCommit()).isPresent().isEqualTo(gitlab.mergedCommit(project, mr.iid()));
        assertThat(gitlab.readFile(project, answer.mergedCommit().orElseThrow(), "grants/db.txt")).contains("alice\nfay\n");
    }

    /** Issue 37: a deploy of main at a commit holds a merge whose merged commit is that commit or an ancestor of it. */
    @Test
    void tellsWhetherAMergedCommitIsHeldByACommitOfMain() {
        var before = gitlab.branchHead(project, "main").orElseThrow();
        var mr = approvedWithPassedPipeline("changeflow/held", "Grant erin", "alice\nerin\n", "op-9");
        assertThat(gitlab.merge(project, mr.iid(), awaitMergeable(mr.iid()).sha())).isEqualTo(MergeResult.MERGED);
        var merged = gitlab.mergedCommit(project, mr.iid()).orElseThrow();
        server.gitlab().push(project, "main", Map.of("README.md", "# later\n"), "A person's later commit");
        var head = gitlab.branchHead(project, "main").orElseThrow();

        assertThat(gitlab.isAncestor(project, merged, head)).as("a later commit of main holds the merge").isTrue();
        assertThat(gitlab.isAncestor(project, merged, merged)).as("the merged commit itself").isTrue();
        assertThat(gitlab.isAncestor(project, merged, before)).as("a commit from before the merge").isFalse();
        assertThat(gitlab.isAncestor(project, "0123456789abcdef0123456789abcdef01234567", head))
                .as("a commit GitLab does not know: 400 Could not find ref").isFalse();
    }

    @Test
    void runsTheWholeLifeCycleAsAuthorAndBothApprovalBots() {
        assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
        assertThat(gitlab.readFile(project, "main", "grants/db.txt")).contains("alice\n");
        assertThat(gitlab.readFile(project, "main", "grants/missing.txt")).isEmpty();

        gitlab.createBranch(project, "changeflow/op-1", "main");
        gitlab.createBranch(project, "changeflow/op-1", "main");
        gitlab.commit(project, "changeflow/op-1", "Grant bob and carol", List.of(
                new FileChange("grants/db.txt", "alice\nbob\n"),
                new FileChange("grants/new/cache.txt", "carol\n")));
        assertThat(gitlab.readFile(project, "changeflow/op-1", "grants/new/cache.txt")).contains("carol\n");

        var opened = gitlab.open(project, "changeflow/op-1", "main", "Grant bob", "operations: op-1");
        assertThat(opened.state()).isEqualTo(MergeRequestState.OPENED);
        assertThat(opened.iid()).isPositive();
        assertThat(opened.webUrl()).endsWith("/" + project + "/-/merge_requests/" + opened.iid());
        assertThat(gitlab.findBySourceBranch(project, "changeflow/op-1")).map(RemoteMergeRequest::iid)
                .contains(opened.iid());
        assertThat(gitlab.findBySourceBranch(project, "changeflow/none")).isEmpty();

        await().atMost(SETTLE).until(() -> statusOf(opened.iid()) == PipelineStatus.PASSED);

        gitlab.approve(project, opened.iid(), "approval-bot-1");
        gitlab.approve(project, opened.iid(), "approval-bot-2");
        assertThat(gitlab.approvedBy(project, opened.iid())).containsExactly("approval-bot-1", "approval-bot-2");

        var ready = awaitMergeable(opened.iid());
        assertThat(ready.sha()).hasSize(40);
        assertThat(gitlab.merge(project, opened.iid(), ready.sha())).isEqualTo(MergeResult.MERGED);

        var merged = gitlab.get(project, opened.iid());
        assertThat(merged.state()).isEqualTo(MergeRequestState.MERGED);
        assertThat(gitlab.readFile(project, "main", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(gitlab.readFile(project, "main", "grants/new/cache.txt")).contains("carol\n");
        assertThat(server.merges()).contains(new SimulatorServer.Merge(project, opened.iid(), "operations: op-1"));
        gitlab.close(project, opened.iid());
        assertThat(gitlab.get(project, opened.iid()).state()).isEqualTo(MergeRequestState.MERGED);
    }

    @Test
    void reportsCheckingRightAfterAPushSoTheCallerPolls() {
        server.gitlab().setTimings(Duration.ofHours(1), PIPELINE, REBASE);
        var iid = openMergeRequest("changeflow/checking", "grants/db.txt", "alice\nbob\n");

        var fresh = gitlab.get(project, iid);
        assertThat(fresh.state()).isEqualTo(MergeRequestState.OPENED);
        assertThat(fresh.detailedMergeStatus()).isEqualTo("checking");
        assertThat(gitlab.get(project, iid).detailedMergeStatus()).isEqualTo("checking");

        server.gitlab().setTimings(CHECKING, PIPELINE, REBASE);
        assertThat(awaitMergeable(iid).detailedMergeStatus()).isEqualTo("mergeable");
    }

    @Test
    void answersCannotBeMergedYetWhileGitLabStillChecksAfterAPush() {
        server.gitlab().setTimings(Duration.ofHours(1), PIPELINE, REBASE);
        var iid = openMergeRequest("changeflow/transient", "grants/db.txt", "alice\nbob\n");
        var sha = gitlab.get(project, iid).sha();

        assertThat(gitlab.merge(project, iid, sha)).isEqualTo(MergeResult.CANNOT_BE_MERGED_YET);
        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.OPENED);

        server.gitlab().setTimings(CHECKING, PIPELINE, REBASE);
        assertThat(mergeWhenMergeable(iid)).isEqualTo(MergeResult.MERGED);
    }

    @Test
    void answersShaMismatchWhenTheHeadMovedAndWhenTheMergeRequestIsLocked() {
        var iid = openMergeRequest("changeflow/moved", "grants/db.txt", "alice\nbob\n");
        var seen = awaitMergeable(iid).sha();
        gitlab.commit(project, "changeflow/moved", "Also dave", List.of(new FileChange("grants/db.txt", "alice\nbob\ndave\n")));
        var moved = awaitMergeable(iid);

        assertThat(gitlab.merge(project, iid, seen)).isEqualTo(MergeResult.SHA_MISMATCH_OR_LOCKED);

        server.gitlab().lock(project, iid, Duration.ofSeconds(30));
        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.LOCKED);
        assertThat(gitlab.merge(project, iid, moved.sha())).isEqualTo(MergeResult.SHA_MISMATCH_OR_LOCKED);
    }

    @Test
    void answersNotMergeableOnAConflictAndMergesAfterARebaseWhenTheChangeStillApplies() {
        var first = openMergeRequest("changeflow/first", "grants/db.txt", "alice\nbob\n");
        var second = openMergeRequest("changeflow/second", "grants/db.txt", "alice\ncarol\n");
        var third = openMergeRequest("changeflow/third", "grants/other.txt", "dave\n");
        assertThat(mergeWhenMergeable(first)).isEqualTo(MergeResult.MERGED);

        var conflicting = awaitSettled(second);
        assertThat(conflicting.detailedMergeStatus()).isEqualTo("conflict");
        assertThat(gitlab.merge(project, second, conflicting.sha())).isEqualTo(MergeResult.NOT_MERGEABLE);

        server.gitlab().setTimings(CHECKING, PIPELINE, Duration.ofHours(1));
        gitlab.rebase(project, second);
        assertThat(gitlab.get(project, second).rebaseInProgress()).isTrue();
        assertThat(gitlab.get(project, second).detailedMergeStatus()).isEqualTo("checking");
        server.gitlab().setTimings(CHECKING, PIPELINE, REBASE);
        var failed = awaitRebaseEnded(second);
        assertThat(failed.mergeError()).hasValueSatisfying(error -> assertThat(error).contains("Rebase failed"));

        var beforeRebase = awaitMergeable(third).sha();
        gitlab.rebase(project, third);
        var rebased = awaitRebaseEnded(third);
        assertThat(rebased.mergeError()).isEmpty();
        assertThat(rebased.sha()).isNotEqualTo(beforeRebase);
        assertThat(mergeWhenMergeable(third)).isEqualTo(MergeResult.MERGED);
        assertThat(gitlab.readFile(project, "main", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(gitlab.readFile(project, "main", "grants/other.txt")).contains("dave\n");
    }

    @Test
    void rewritingTheBranchOnTheTargetEndsARebaseConflictWithANewHeadAndPipelineAndMerges() {
        var first = openMergeRequest("changeflow/first", "grants/db.txt", "alice\nbob\n");
        var second = openMergeRequest("changeflow/second", "grants/db.txt", "alice\ncarol\n");
        assertThat(mergeWhenMergeable(first)).isEqualTo(MergeResult.MERGED);
        awaitSettled(second);
        gitlab.rebase(project, second);
        var conflicted = awaitRebaseEnded(second);
        assertThat(conflicted.mergeError()).isPresent();
        var pipelineBefore = gitlab.latestPipeline(project, second).orElseThrow();

        gitlab.rewriteBranch(project, "changeflow/second", "main", "Grant carol, generated again",
                List.of(new FileChange("grants/db.txt", "alice\nbob\ncarol\n"), new FileChange("grants/new.txt", "erin\n")));

        var rewritten = gitlab.get(project, second);
        assertThat(rewritten.sha()).isNotEqualTo(conflicted.sha());
        assertThat(rewritten.mergeError()).isEmpty();
        assertThat(gitlab.readFile(project, "changeflow/second", "grants/db.txt")).contains("alice\nbob\ncarol\n");
        assertThat(gitlab.readFile(project, "changeflow/second", "README.md")).contains("# test\n");
        var pipeline = gitlab.latestPipeline(project, second).orElseThrow();
        assertThat(pipeline.id()).isGreaterThan(pipelineBefore.id());
        assertThat(pipeline.ranFor(rewritten.sha())).isTrue();
        await().atMost(SETTLE).until(() -> statusOf(second) == PipelineStatus.PASSED);
        assertThat(mergeWhenMergeable(second)).isEqualTo(MergeResult.MERGED);
        assertThat(gitlab.readFile(project, "main", "grants/db.txt")).contains("alice\nbob\ncarol\n");
        assertThat(gitlab.readFile(project, "main", "grants/new.txt")).contains("erin\n");
    }

    @Test
    void rewritingABranchTwiceWithTheSameFilesLeavesTheSameContent() {
        var iid = openMergeRequest("changeflow/twice", "grants/db.txt", "alice\nbob\n");
        var files = List.of(new FileChange("grants/db.txt", "alice\nfred\n"));

        gitlab.rewriteBranch(project, "changeflow/twice", "main", "Grant fred", files);
        var once = gitlab.get(project, iid).sha();
        gitlab.rewriteBranch(project, "changeflow/twice", "main", "Grant fred", files);

        assertThat(gitlab.get(project, iid).sha()).isNotEqualTo(once);
        assertThat(gitlab.readFile(project, "changeflow/twice", "grants/db.txt")).contains("alice\nfred\n");
        assertThat(gitlab.readFile(project, "changeflow/twice", "README.md")).isEqualTo(gitlab.readFile(project, "main", "README.md"));
    }

    @Test
    void theApprovalsARewriteRemovesAreSeenByReadingThem() {
        server.gitlab().resetApprovalsOnPush(project, true);
        var iid = openMergeRequest("changeflow/reapprove", "grants/db.txt", "alice\nbob\n");
        gitlab.approve(project, iid, "approval-bot-1");

        gitlab.rewriteBranch(project, "changeflow/reapprove", "main", "Grant bob", List.of(new FileChange("grants/db.txt", "alice\nbob\n")));

        assertThat(gitlab.approvedBy(project, iid)).isEmpty();
        // approve once GitLab has processed the push (an approval given while it is checking is reset with the push)
        awaitSettled(iid);
        gitlab.approve(project, iid, "approval-bot-1");
        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void answersUnauthorizedWhenTheAuthorApprovesItsOwnMergeRequestOrAnAccountApprovesTwice() {
        var iid = openMergeRequest("changeflow/approvals", "grants/db.txt", "alice\nbob\n");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "changeflow-bot"))
                .isInstanceOf(IllegalArgumentException.class);
        var selfApproval = AdapterContext.start(server.baseUrl(), Map.of(
                "approvers[0].account", "changeflow-bot", "approvers[0].token", server.gitlab().author().token()));
        try (selfApproval) {
            assertThatThrownBy(() -> selfApproval.mergeRequests().approve(project, iid, "changeflow-bot"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                        assertThat(e.status()).isEqualTo(401);
                    });
        }

        gitlab.approve(project, iid, "approval-bot-1");
        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void reportsPipelinesThatRunPassFailOrHang() {
        var passing = openMergeRequest("changeflow/passing", "grants/db.txt", "alice\nbob\n");
        var marked = openMergeRequest("changeflow/marked", "grants/x.txt", "eve " + GitLabSimulator.FAIL_PIPELINE_MARKER);
        var hanging = openMergeRequest("changeflow/hanging", "grants/y.txt", "frank\n");
        server.gitlab().forcePipeline(project, hanging, PipelineOutcome.HANG);
        server.gitlab().setTimings(CHECKING, Duration.ofMinutes(1), REBASE);
        var slow = openMergeRequest("changeflow/slow", "grants/z.txt", "grace\n");

        assertThat(statusOf(slow)).isEqualTo(PipelineStatus.RUNNING);
        await().atMost(SETTLE).until(() -> statusOf(passing) == PipelineStatus.PASSED);
        await().atMost(SETTLE).until(() -> statusOf(marked) == PipelineStatus.FAILED);
        assertThat(statusOf(hanging)).isEqualTo(PipelineStatus.RUNNING);

        server.gitlab().forcePipeline(project, passing, PipelineOutcome.FAILED);
        assertThat(statusOf(passing)).isEqualTo(PipelineStatus.FAILED);
        server.gitlab().forcePipeline(project, slow, PipelineOutcome.SUCCESS);
        assertThat(statusOf(slow)).isEqualTo(PipelineStatus.PASSED);
        for (var iid : List.of(passing, marked, hanging, slow)) {
            assertThat(gitlab.latestPipeline(project, iid)).get().extracting(Pipeline::sha)
                    .as("each pipeline names the commit it ran for").isEqualTo(gitlab.get(project, iid).sha());
        }
    }

    @Test
    void aPipelineThatPassedForAnEarlierHeadKeepsThatHeadsShaSoItIsNotTakenForANewCommit() {
        var branch = "changeflow/stale";
        var iid = openMergeRequest(branch, "grants/db.txt", "alice\nbob\n");
        await().atMost(SETTLE).until(() -> statusOf(iid) == PipelineStatus.PASSED);
        var passed = gitlab.latestPipeline(project, iid).orElseThrow();
        var oldHead = gitlab.get(project, iid).sha();
        assertThat(passed.sha()).isEqualTo(oldHead);
        assertThat(PipelineWatch.observation(passed, oldHead)).isEqualTo(PollObservation.PASSED);

        // the new head's pipeline takes a minute, so it is certainly still running when read below
        server.gitlab().setTimings(CHECKING, Duration.ofMinutes(1), REBASE);
        gitlab.commit(project, branch, "Grant carol too", List.of(new FileChange("grants/db.txt", "alice\nbob\ncarol\n")));

        var newHead = gitlab.get(project, iid).sha();
        assertThat(newHead).isNotEqualTo(oldHead);
        assertThat(PipelineWatch.observation(passed, newHead))
                .as("the passed pipeline speaks for the old head only").isEqualTo(PollObservation.RUNNING);
        var latest = gitlab.latestPipeline(project, iid).orElseThrow();
        assertThat(latest.id()).isGreaterThan(passed.id());
        assertThat(latest.sha()).isEqualTo(newHead);
        assertThat(latest.status()).isEqualTo(PipelineStatus.RUNNING);
        assertThat(PipelineWatch.observation(latest, newHead)).isEqualTo(PollObservation.RUNNING);

        server.gitlab().forcePipeline(project, iid, PipelineOutcome.SUCCESS);
        var finished = gitlab.latestPipeline(project, iid).orElseThrow();
        assertThat(finished.id()).isEqualTo(latest.id());
        assertThat(PipelineWatch.observation(finished, gitlab.get(project, iid).sha()))
                .isEqualTo(PollObservation.PASSED);
    }

    @Test
    void closesAnOpenMergeRequestAndSkipsClosedOrMissingOnes() {
        var iid = openMergeRequest("changeflow/closing", "grants/db.txt", "alice\nbob\n");

        gitlab.close(project, iid);
        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.CLOSED);
        gitlab.close(project, iid);
        assertThat(gitlab.findBySourceBranch(project, "changeflow/closing")).isEmpty();

        assertThat(gitlab.get(project, 9999).state()).isEqualTo(MergeRequestState.ABSENT);
        gitlab.close(project, 9999);
    }

    @Test
    void findsTheExistingMergeRequestWhenOpeningTwice() {
        var iid = openMergeRequest("changeflow/twice", "grants/db.txt", "alice\nbob\n");

        var again = gitlab.open(project, "changeflow/twice", "main", "Grant bob", "operations: op-2");

        assertThat(again.iid()).isEqualTo(iid);
    }

    @Test
    void commitsNothingWhenEveryFileAlreadyHasItsContent() {
        gitlab.createBranch(project, "changeflow/idempotent", "main");
        var files = List.of(new FileChange("grants/db.txt", "alice\nbob\n"));
        gitlab.commit(project, "changeflow/idempotent", "Grant bob", files);
        var head = server.gitlab().branchHead(project, "changeflow/idempotent").orElseThrow();

        gitlab.commit(project, "changeflow/idempotent", "Grant bob", files);

        assertThat(server.gitlab().branchHead(project, "changeflow/idempotent")).contains(head);
    }

    @Test
    void failsWithTheRealStatusForAnUnknownProject() {
        assertThatThrownBy(() -> gitlab.readFile("platform/no-such-project", "main", "README.md"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.isTransient()).isFalse();
                });
    }

    /** The latest pipeline's status, or null while GitLab shows none. */
    /** A merge request of {@code grants/db.txt} holding {@code content}, its pipeline passed, both bots approved. */
    private RemoteMergeRequest approvedWithPassedPipeline(String branch, String title, String content, String operation) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, title, List.of(new FileChange("grants/db.txt", content)));
        var mr = gitlab.open(project, branch, "main", title, "Changeflow-Operation: " + operation);
        await().atMost(SETTLE).until(() -> statusOf(mr.iid()) == PipelineStatus.PASSED);
        gitlab.approve(project, mr.iid(), "approval-bot-1");
        gitlab.approve(project, mr.iid(), "approval-bot-2");
        return mr;
    }

    private PipelineStatus statusOf(long iid) {
        return gitlab.latestPipeline(project, iid).map(Pipeline::status).orElse(null);
    }

    private long openMergeRequest(String branch, String path, String content) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + path, List.of(new FileChange(path, content)));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }

    private RemoteMergeRequest awaitMergeable(long iid) {
        return await().atMost(SETTLE).until(() -> gitlab.get(project, iid),
                mr -> "mergeable".equals(mr.detailedMergeStatus()));
    }

    /** Merges the merge request at its head once GitLab calls it mergeable. */
    private MergeResult mergeWhenMergeable(long iid) {
        return gitlab.merge(project, iid, awaitMergeable(iid).sha());
    }

    private RemoteMergeRequest awaitRebaseEnded(long iid) {
        return await().atMost(SETTLE).until(() -> gitlab.get(project, iid), mr -> !mr.rebaseInProgress());
    }

    private RemoteMergeRequest awaitSettled(long iid) {
        return await().atMost(SETTLE).until(() -> gitlab.get(project, iid),
                mr -> !"checking".equals(mr.detailedMergeStatus()) && !"unchecked".equals(mr.detailedMergeStatus()));
    }
}
