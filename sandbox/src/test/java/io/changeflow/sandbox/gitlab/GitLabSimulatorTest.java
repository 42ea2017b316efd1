package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.sandbox.MergeListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulator's state machine with a hand-moved clock: mergeability, conflicts, rebase, pipelines, approvals. */
class GitLabSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(2);
    private static final Duration PIPELINE = Duration.ofSeconds(10);
    private static final Duration REBASE = Duration.ofSeconds(1);

    private final List<String> merges = new ArrayList<>();

    @BeforeEach
    void start() {
        var properties = GitLabSimulatorProperties.defaults().withTimings(CHECKING, PIPELINE, REBASE);
        MergeListener listener = (project, iid, description) -> merges.add(project + "!" + iid + " " + description);
        seed(properties, listener);
    }

    @Test
    void webUrlsFollowTheServerUnlessTheSettingFixesThem() {
        var server = new java.util.concurrent.atomic.AtomicReference<>("http://localhost:41234/sim/gitlab/");
        var following = new GitLabSimulator(GitLabSimulatorProperties.defaults(), clock, null, server::get);
        assertThat(following.webUrl()).isEqualTo("http://localhost:41234/sim/gitlab");
        server.set("http://localhost:50000/ctx/sim/gitlab");
        assertThat(following.projectJson(PROJECT).get("web_url")).isEqualTo("http://localhost:50000/ctx/sim/gitlab/" + PROJECT);

        var fixed = new GitLabSimulatorProperties(null, null, null, null, null, " https://gitlab.sandbox.example/sim/ ",
                null, null, null, null, null);
        assertThat(new GitLabSimulator(fixed, clock, null, server::get).webUrl()).isEqualTo("https://gitlab.sandbox.example/sim");
        assertThat(gitlab.webUrl()).as("no server known").isEqualTo(GitLabSimulatorProperties.DEFAULT_WEB_URL);
    }

    @Test
    void addressesProjectsByNumericIdAndByPath() {
        var id = gitlab.ensureProject("team/other", Map.of("a.txt", "a"));

        assertThat(gitlab.projectJson(String.valueOf(id)).get("path_with_namespace")).isEqualTo("team/other");
        assertThat(gitlab.projectJson("team/other").get("id")).isEqualTo(id);
        assertThat(gitlab.ensureProject("team/other", Map.of())).isEqualTo(id);
        assertThatThrownBy(() -> gitlab.projectJson("team/missing"))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void refusesUnknownTokens() {
        assertThatThrownBy(() -> gitlab.authenticate("nope"))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> gitlab.authenticate(null)).isInstanceOf(GitLabError.class);
    }

    @Test
    void commitsSeveralActionsAtOnceOrNothing() {
        gitlab.createBranch(PROJECT, "feature", "main", author);
        commit("feature", action("create", "grants/new.txt", "bob\n"), action("update", "grants/db.txt", "alice\nbob\n"));
        assertThat(gitlab.file(PROJECT, "feature", "grants/new.txt")).contains("bob\n");
        assertThat(gitlab.file(PROJECT, "feature", "grants/db.txt")).contains("alice\nbob\n");

        assertThatThrownBy(() -> commit("feature", action("update", "grants/other.txt", "x"),
                action("create", "grants/new.txt", "again")))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> commit("feature", action("create", "grants/fresh.txt", "x"),
                action("create", "grants/new.txt", "again")))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.body().get("message"))
                        .isEqualTo("A file with this name already exists"));
        assertThat(gitlab.file(PROJECT, "feature", "grants/fresh.txt")).isEmpty();
        assertThat(gitlab.file(PROJECT, "main", "grants/new.txt")).isEmpty();
    }

    @Test
    void staysCheckingForTheConfiguredTimeAfterEveryPush() {
        var iid = open("feature", "grants/db.txt", "alice\nbob\n");
        assertThat(gitlab.detailedMergeStatus(PROJECT, iid)).isEqualTo("checking");
        assertThat(merge(iid, null)).isEqualTo(422);

        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, iid)).isEqualTo("mergeable");

        commit("feature", action("update", "grants/db.txt", "alice\nbob\ncarol\n"));
        assertThat(gitlab.detailedMergeStatus(PROJECT, iid)).isEqualTo("checking");
    }

    @Test
    void mergesOnlyTheHeadItWasShownAndNotWhileLocked() {
        var iid = open("feature", "grants/db.txt", "alice\nbob\n");
        clock.advance(CHECKING);

        assertThat(merge(iid, "0".repeat(40))).isEqualTo(409);
        gitlab.lock(PROJECT, iid, Duration.ofSeconds(5));
        assertThat(gitlab.mergeRequestState(PROJECT, iid)).isEqualTo("locked");
        assertThat(merge(iid, gitlab.mergeRequestSha(PROJECT, iid))).isEqualTo(409);

        clock.advance(Duration.ofSeconds(5));
        assertThat(merge(iid, gitlab.mergeRequestSha(PROJECT, iid))).isEqualTo(200);
        assertThat(gitlab.mergeRequestState(PROJECT, iid)).isEqualTo("merged");
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(merge(iid, null)).isEqualTo(405);
    }

    @Test
    void makesOtherMergeRequestsOnTheSameFileConflictUntilARebaseCanApplyThem() {
        var first = open("first", "grants/db.txt", "alice\nbob\n");
        var second = open("second", "grants/db.txt", "alice\ncarol\n");
        var sameContent = open("same", "grants/db.txt", "alice\nbob\n");
        var otherFile = open("other", "grants/cache.txt", "dave\n");
        clock.advance(CHECKING);

        assertThat(merge(first, null)).isEqualTo(200);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("checking");
        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("conflict");
        assertThat(gitlab.getMergeRequest(PROJECT, second, false, false).get("has_conflicts")).isEqualTo(true);
        assertThat(merge(second, null)).as("GitLab 17/18: a conflict is 422 Branch cannot be merged").isEqualTo(422);
        assertThat(gitlab.detailedMergeStatus(PROJECT, sameContent)).isEqualTo("mergeable");
        assertThat(gitlab.detailedMergeStatus(PROJECT, otherFile)).isEqualTo("mergeable");

        gitlab.rebase(PROJECT, second, author);
        assertThat(gitlab.getMergeRequest(PROJECT, second, true, false).get("rebase_in_progress")).isEqualTo(true);
        assertThatThrownBy(() -> gitlab.rebase(PROJECT, second, author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(409));
        clock.advance(REBASE);
        var failed = gitlab.getMergeRequest(PROJECT, second, true, false);
        assertThat(failed.get("rebase_in_progress")).isEqualTo(false);
        assertThat((String) failed.get("merge_error")).startsWith("Rebase failed");

        var before = gitlab.mergeRequestSha(PROJECT, otherFile);
        gitlab.rebase(PROJECT, otherFile, author);
        clock.advance(REBASE);
        var rebased = gitlab.getMergeRequest(PROJECT, otherFile, true, false);
        assertThat(rebased.get("merge_error")).isNull();
        assertThat(rebased.get("sha")).isNotEqualTo(before);
        assertThat(gitlab.file(PROJECT, "other", "grants/db.txt")).contains("alice\nbob\n");
        clock.advance(CHECKING);
        assertThat(merge(otherFile, (String) rebased.get("sha"))).isEqualTo(200);
        assertThat(gitlab.file(PROJECT, "main", "grants/cache.txt")).contains("dave\n");
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\nbob\n");
    }

    @Test
    void aForcedCommitOverwritesTheBranchWithOneCommitOnTheStartBranchAndEndsTheConflict() {
        var first = open("first", "grants/db.txt", "alice\nbob\n");
        var second = open("second", "grants/db.txt", "alice\ncarol\n");
        clock.advance(CHECKING);
        assertThat(merge(first, null)).isEqualTo(200);
        clock.advance(CHECKING);
        gitlab.rebase(PROJECT, second, author);
        clock.advance(REBASE);
        assertThat((String) gitlab.getMergeRequest(PROJECT, second, true, false).get("merge_error")).startsWith("Rebase failed");
        var headBefore = gitlab.mergeRequestSha(PROJECT, second);
        var pipelinesBefore = gitlab.mergeRequestPipelines(PROJECT, second).size();
        var mainHead = gitlab.branchHead(PROJECT, "main").orElseThrow();

        var commit = gitlab.commit(PROJECT, "second", "Grant carol, generated again", "main", true,
                List.of(action("update", "grants/db.txt", "alice\nbob\ncarol\n")), author);

        assertThat(commit.get("parent_ids")).isEqualTo(List.of(mainHead));
        var after = gitlab.getMergeRequest(PROJECT, second, true, false);
        assertThat(after.get("sha")).isEqualTo(commit.get("id")).isNotEqualTo(headBefore);
        assertThat(after.get("merge_error")).isNull();
        assertThat(after.get("has_conflicts")).isEqualTo(false);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("checking");
        assertThat(gitlab.mergeRequestPipelines(PROJECT, second)).hasSize(pipelinesBefore + 1)
                .first().satisfies(p -> assertThat(p.get("sha")).isEqualTo(commit.get("id")));
        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("mergeable");
        assertThat(merge(second, (String) commit.get("id"))).isEqualTo(200);
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\nbob\ncarol\n");
    }

    @Test
    void aForcedCommitDropsWhatTheBranchHeldBefore() {
        open("rewritten", "grants/db.txt", "alice\nbob\n");
        commit("rewritten", action("create", "grants/stray.txt", "left over\n"));

        gitlab.commit(PROJECT, "rewritten", "Only this", "main", true,
                List.of(action("create", "grants/cache.txt", "dave\n")), author);

        assertThat(gitlab.file(PROJECT, "rewritten", "grants/stray.txt")).isEmpty();
        assertThat(gitlab.file(PROJECT, "rewritten", "grants/db.txt")).contains("alice\n");
        assertThat(gitlab.file(PROJECT, "rewritten", "grants/cache.txt")).contains("dave\n");
    }

    @Test
    void withoutForceTheStartBranchOfAnExistingBranchIsIgnoredAndACommitAppends() {
        open("kept", "grants/db.txt", "alice\nbob\n");

        gitlab.commit(PROJECT, "kept", "More", "main", false, List.of(action("create", "grants/cache.txt", "dave\n")), author);

        assertThat(gitlab.file(PROJECT, "kept", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(gitlab.file(PROJECT, "kept", "grants/cache.txt")).contains("dave\n");
        assertThatThrownBy(() -> gitlab.commit(PROJECT, "kept", "Forced", "no-such-branch", true,
                List.of(action("update", "grants/db.txt", "x\n")), author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(400));
    }

    @Test
    void removesApprovalsOnPushByDefaultAsGitLabDoesAndKeepsThemWhereTheProjectSaysSo() {
        assertThat(GitLabBehaviourProperties.defaults().resetApprovalsOnPush()).as("GitLab's default").isTrue();
        gitlab.resetApprovalsOnPush(PROJECT, false);
        var kept = open("kept", "grants/db.txt", "alice\nbob\n");
        gitlab.approve(PROJECT, kept, null, null, bot1);
        commit("kept", action("create", "grants/cache.txt", "dave\n"));
        assertThat(gitlab.approvedBy(PROJECT, kept)).containsExactly("approval-bot-1");

        gitlab.resetApprovalsOnPush(PROJECT, true);
        var reset = open("reset", "grants/cache.txt", "erin\n");
        gitlab.approve(PROJECT, reset, null, null, bot1);
        gitlab.approve(PROJECT, reset, null, null, bot2);
        gitlab.commit(PROJECT, "reset", "Generated again", "main", true,
                List.of(action("create", "grants/cache.txt", "erin\nfred\n")), author);

        assertThat(gitlab.approvedBy(PROJECT, reset)).isEmpty();
    }

    @Test
    void runsPipelinesOverTimeAndFailsThoseWhoseChangeCarriesTheMarker() {
        gitlab.push(PROJECT, "main", Map.of("README.md", "mentions " + GitLabSimulator.FAIL_PIPELINE_MARKER), "Doc");
        var passing = open("passing", "grants/db.txt", "alice\nbob\n");
        var marked = open("marked", "grants/db.txt", "alice\n" + GitLabSimulator.FAIL_PIPELINE_MARKER + "\n");

        assertThat(pipelineStatus(passing)).isEqualTo("pending");
        clock.advance(PIPELINE.dividedBy(2));
        assertThat(pipelineStatus(passing)).isEqualTo("running");
        clock.advance(PIPELINE);
        assertThat(pipelineStatus(passing)).isEqualTo("success");
        assertThat(pipelineStatus(marked)).isEqualTo("failed");

        var pipelineId = (Long) gitlab.mergeRequestPipelines(PROJECT, passing).getFirst().get("id");
        var single = gitlab.pipelineJson(PROJECT, pipelineId);
        assertThat(single.get("status")).isEqualTo("success");
        assertThat(single.get("finished_at")).isNotNull();
        assertThat(single.get("duration")).isEqualTo(8);
    }

    @Test
    void failsThePipelineOfAGrantLineWhoseLowerCaseSubjectCarriesTheMarkerInAnyCase() {
        var lowerCase = open("lower", "grants/db.txt",
                "alice\nsvc-fail_pipeline until=2026-12-05T00:00:00Z op=0a0a0000-0000-4000-8000-000000000001\n");
        var mixedCase = open("mixed", "grants/cache.txt", "svc-Fail_Pipeline\n");
        var lookalike = open("lookalike", "grants/queue.txt", "svc-fail-pipeline\nsvc-failpipeline\n");

        clock.advance(PIPELINE);

        assertThat(pipelineStatus(lowerCase)).isEqualTo("failed");
        assertThat(pipelineStatus(mixedCase)).isEqualTo("failed");
        assertThat(pipelineStatus(lookalike)).isEqualTo("success");
    }

    @Test
    void letsTestsForceOrHangPipelinesPerMergeRequestOrBranch() {
        var iid = open("forced", "grants/db.txt", "alice\nbob\n");

        gitlab.forcePipeline(PROJECT, iid, PipelineOutcome.FAILED);
        assertThat(pipelineStatus(iid)).isEqualTo("failed");
        gitlab.forceBranchPipeline(PROJECT, "forced", PipelineOutcome.SUCCESS);
        assertThat(pipelineStatus(iid)).isEqualTo("success");
        gitlab.forcePipeline(PROJECT, iid, PipelineOutcome.HANG);
        clock.advance(Duration.ofHours(1));
        assertThat(pipelineStatus(iid)).isEqualTo("running");
        gitlab.forcePipeline(PROJECT, iid, PipelineOutcome.AUTO);
        assertThat(pipelineStatus(iid)).isEqualTo("success");
    }

    @Test
    void aPipelineForcedToSucceedWhileItRunsFinishedWhenItWasForcedAsGitLabStampsFinishedAt() {
        var iid = open("forced-at", "grants/db.txt", "alice\nbob\n");
        var pipelineId = (Long) gitlab.mergeRequestPipelines(PROJECT, iid).getFirst().get("id");
        clock.advance(PIPELINE.dividedBy(2));
        assertThat(gitlab.pipelineJson(PROJECT, pipelineId).get("finished_at")).as("still running").isNull();

        var forcedAt = clock.instant();
        gitlab.forcePipeline(PROJECT, iid, PipelineOutcome.SUCCESS);
        clock.advance(Duration.ofSeconds(1));

        var single = gitlab.pipelineJson(PROJECT, pipelineId);
        assertThat(single.get("status")).isEqualTo("success");
        assertThat(single.get("finished_at")).as("the moment it was forced, not its natural end")
                .isEqualTo(GitLabJson.time(forcedAt));
    }

    @Test
    void createsAPipelineOnEveryPushToTheSourceBranch() {
        var iid = open("pushes", "grants/db.txt", "alice\nbob\n");
        commit("pushes", action("update", "grants/db.txt", "alice\nbob\ncarol\n"));

        var pipelines = gitlab.mergeRequestPipelines(PROJECT, iid);
        assertThat(pipelines).hasSize(2);
        assertThat(pipelines.getFirst().get("sha")).isEqualTo(gitlab.mergeRequestSha(PROJECT, iid));
    }

    @Test
    void answersUnauthorizedToSelfApprovalAndToASecondApprovalOfTheSameAccount() {
        var iid = open("approvals", "grants/db.txt", "alice\nbob\n");

        assertThatThrownBy(() -> gitlab.approve(PROJECT, iid, null, null, author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(401));
        gitlab.approve(PROJECT, iid, null, null, bot1);
        assertThatThrownBy(() -> gitlab.approve(PROJECT, iid, null, null, bot1))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.body()).containsEntry("message", "401 Unauthorized");
                });
        assertThatThrownBy(() -> gitlab.approve(PROJECT, iid, "0".repeat(40), null, bot2))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(409));
        gitlab.approve(PROJECT, iid, gitlab.mergeRequestSha(PROJECT, iid), null, bot2);

        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1", "approval-bot-2");
        var approvals = gitlab.approvalsJson(PROJECT, iid, bot1);
        assertThat(approvals.get("approved")).isEqualTo(true);
        assertThat(approvals.get("user_has_approved")).isEqualTo(true);
        assertThat(approvals.get("approvals_left")).isEqualTo(0);
    }

    @Test
    void refusesStaleCheckItemsWithTheItemsInEffect() {
        var iid = open("items", "grants/db.txt", "alice\nbob\n");
        gitlab.setCheckItems(PROJECT, List.of("ticket-linked", "owner-informed"), false);

        assertThat(gitlab.checkItemsJson(PROJECT).get("check_items")).isEqualTo(List.of("ticket-linked", "owner-informed"));
        assertThatThrownBy(() -> gitlab.approve(PROJECT, iid, null, List.of("ticket-linked"), bot1))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.body().get("check_items")).isEqualTo(List.of("ticket-linked", "owner-informed"));
                });
        gitlab.approve(PROJECT, iid, null, null, bot1);

        gitlab.setCheckItems(PROJECT, List.of("ticket-linked"), true);
        assertThatThrownBy(() -> gitlab.approve(PROJECT, iid, null, null, bot2))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(422));
        gitlab.approve(PROJECT, iid, null, List.of("ticket-linked"), bot2);
        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void tellsTheMergeListenerAboutEveryMergeInMergeOrder() {
        var first = open("one", "grants/a.txt", "a\n");
        var second = open("two", "grants/b.txt", "b\n");
        clock.advance(CHECKING);

        assertThat(merge(second, null)).isEqualTo(200);
        clock.advance(CHECKING);
        assertThat(merge(first, null)).isEqualTo(200);

        assertThat(merges).containsExactly(PROJECT + "!" + second + " operations: two", PROJECT + "!" + first + " operations: one");
    }

    @Test
    void recordsEveryMergeWithTheMergedHeadAndItsPipelineStatusAtTheMomentOfTheMerge() {
        var passed = open("passed", "grants/a.txt", "a\n");
        var failed = open("failed", "grants/b.txt", "b " + GitLabSimulator.FAIL_PIPELINE_MARKER + "\n");
        var running = open("running", "grants/c.txt", "c\n");
        clock.advance(PIPELINE);
        var passedHead = gitlab.mergeRequestSha(PROJECT, passed);
        var failedHead = gitlab.mergeRequestSha(PROJECT, failed);

        assertThat(merge(passed, passedHead)).isEqualTo(200);
        clock.advance(CHECKING);
        assertThat(merge(failed, null)).as("no 'pipelines must succeed' here: GitLab merges it").isEqualTo(200);
        commit("running", action("update", "grants/c.txt", "c\nd\n"));
        clock.advance(CHECKING);
        var runningHead = gitlab.mergeRequestSha(PROJECT, running);
        assertThat(merge(running, runningHead)).isEqualTo(200);
        // what happens to the pipelines afterwards does not change what was recorded
        gitlab.forcePipeline(PROJECT, failed, PipelineOutcome.SUCCESS);
        clock.advance(PIPELINE);

        assertThat(gitlab.mergeRecords())
                .extracting(GitLabSimulator.MergeRecord::iid, GitLabSimulator.MergeRecord::sourceBranch,
                        GitLabSimulator.MergeRecord::mergedSha, GitLabSimulator.MergeRecord::pipelineStatus)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(passed, "passed", passedHead, "success"),
                        org.assertj.core.groups.Tuple.tuple(failed, "failed", failedHead, "failed"),
                        org.assertj.core.groups.Tuple.tuple(running, "running", runningHead, "running"));
        assertThat(gitlab.mergeRecords()).allSatisfy(r -> {
            assertThat(r.project()).isEqualTo(PROJECT);
            assertThat(r.pipelineId()).isNotNull();
            assertThat(r.at()).isNotNull();
        });
        gitlab.reset();
        assertThat(gitlab.mergeRecords()).isEmpty();
    }

    @Test
    void closesAndReopensAndRefusesASecondOpenMergeRequestFromTheSameBranch() {
        var iid = open("closing", "grants/db.txt", "alice\nbob\n");
        assertThatThrownBy(() -> gitlab.createMergeRequest(PROJECT, "closing", "main", "Again", "", author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(409));

        assertThat(gitlab.openMergeRequests(PROJECT))
                .containsExactly(new GitLabSimulator.OpenMergeRequest(iid, "closing", "operations: closing"));
        gitlab.updateMergeRequest(PROJECT, iid, "close", null, null, author);
        assertThat(gitlab.mergeRequestState(PROJECT, iid)).isEqualTo("closed");
        assertThat(gitlab.openMergeRequests(PROJECT)).isEmpty();
        assertThat(merge(iid, null)).isEqualTo(405);
        gitlab.updateMergeRequest(PROJECT, iid, "reopen", null, null, author);
        assertThat(gitlab.mergeRequestState(PROJECT, iid)).isEqualTo("opened");
    }

    /**
     * GitLab keeps one open merge request per source and target branch on a reopen too ({@code validate_branches},
     * {@code app/models/merge_request.rb}; gitlabhq's {@code merge_requests_controller_spec.rb} "does not allow a closed
     * merge request to be reopened if another one is open"): 409, and the closed one stays closed.
     */
    @Test
    void refusesToReopenAMergeRequestWhileAnotherFromTheSameBranchIsOpen() {
        var first = open("twice", "grants/db.txt", "alice\n");
        gitlab.updateMergeRequest(PROJECT, first, "close", null, null, author);
        var second = ((Number) gitlab.createMergeRequest(PROJECT, "twice", "main", "Again", "", author).get("iid")).longValue();

        assertThatThrownBy(() -> gitlab.updateMergeRequest(PROJECT, first, "reopen", null, null, author))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("Another open merge request already exists for this source branch: !"
                            + second);
                });
        assertThat(gitlab.mergeRequestState(PROJECT, first)).isEqualTo("closed");

        gitlab.updateMergeRequest(PROJECT, second, "close", null, null, author);
        gitlab.updateMergeRequest(PROJECT, first, "reopen", null, null, author);
        assertThat(gitlab.mergeRequestState(PROJECT, first)).isEqualTo("opened");
    }

    @Test
    void startsOverOnReset() {
        open("gone", "grants/db.txt", "x\n");

        gitlab.reset();

        assertThat(gitlab.mergeRequestIids(PROJECT)).isEmpty();
        assertThat(gitlab.file(PROJECT, "main", "README.md")).contains("# " + PROJECT + "\n");
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).isEmpty();
    }

    @Test
    void gitLab17AnswersNotAllowedWith405AndCannotBeMergedWith422() {
        var draft = open("draft", "grants/db.txt", "alice\nbob\n");
        var conflicting = open("conflicting", "grants/db.txt", "alice\ncarol\n");
        var checking = open("checking", "grants/cache.txt", "dave\n");
        assertThat(merge(checking, gitlab.mergeRequestSha(PROJECT, checking))).as("checking").isEqualTo(422);
        clock.advance(CHECKING);
        gitlab.forceDetailedMergeStatus(PROJECT, draft, "draft_status");
        assertThat(merge(draft, gitlab.mergeRequestSha(PROJECT, draft))).as("draft").isEqualTo(405);
        gitlab.forceDetailedMergeStatus(PROJECT, draft, null);
        assertThat(merge(draft, null)).as("sha optional on 17").isEqualTo(200);
        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, conflicting)).isEqualTo("conflict");
        assertThat(merge(conflicting, gitlab.mergeRequestSha(PROJECT, conflicting))).as("conflict").isEqualTo(422);
        gitlab.requireApprovals(PROJECT, true);
        assertThat(gitlab.detailedMergeStatus(PROJECT, checking)).isEqualTo("not_approved");
        assertThat(merge(checking, gitlab.mergeRequestSha(PROJECT, checking))).as("not approved").isEqualTo(405);
    }

    @Test
    void gitLab19AnswersEveryNotMergeableWith405AndAMissingShaWith400WhereTheNamespaceRequiresIt() {
        gitlab.setBehaviour(GitLabSimulatorProperties.Profile.GITLAB_19, false, Duration.ZERO);
        gitlab.requireShaForMerge(PROJECT, true);
        var first = open("first", "grants/db.txt", "alice\nbob\n");
        var second = open("second", "grants/db.txt", "alice\ncarol\n");
        assertThat(merge(first, gitlab.mergeRequestSha(PROJECT, first))).as("checking").isEqualTo(405);
        assertThat(merge(first, "0".repeat(40))).as("stale sha, checked before mergeable?").isEqualTo(409);
        clock.advance(CHECKING);
        assertThat(merge(first, null)).as("no sha").isEqualTo(400);
        assertThat(merge(first, "0".repeat(40))).as("stale sha").isEqualTo(409);
        assertThat(merge(first, gitlab.mergeRequestSha(PROJECT, first))).isEqualTo(200);
        clock.advance(CHECKING);
        assertThat(merge(second, gitlab.mergeRequestSha(PROJECT, second))).as("conflict").isEqualTo(405);
    }

    @Test
    void afterAPushTheMergeRequestReportsItsPreviousHeadForTheRefreshLag() {
        gitlab.setBehaviour(GitLabSimulatorProperties.Profile.GITLAB_17, false, Duration.ofSeconds(5));
        var iid = open("lagging", "grants/db.txt", "alice\nbob\n");
        clock.advance(PIPELINE);
        var before = gitlab.mergeRequestSha(PROJECT, iid);
        var pushed = gitlab.push(PROJECT, "lagging", Map.of("grants/db.txt", "alice\nbob\nerin\n"), "More");

        assertThat(gitlab.liveHead(PROJECT, iid)).isEqualTo(pushed);
        assertThat(gitlab.mergeRequestSha(PROJECT, iid)).isEqualTo(before);
        @SuppressWarnings("unchecked")
        var head = (Map<String, Object>) gitlab.getMergeRequest(PROJECT, iid, false, false).get("head_pipeline");
        assertThat(head.get("sha")).as("the old head's pipeline").isEqualTo(before);
        clock.advance(CHECKING);
        assertThat(merge(iid, before)).as("the stale sha is refused").isEqualTo(409);
        clock.advance(Duration.ofSeconds(3));
        assertThat(gitlab.mergeRequestSha(PROJECT, iid)).isEqualTo(pushed);
    }

    @Test
    void mergedResultsPipelinesRunForTheMergeCommitAndAreTheHeadPipeline() {
        gitlab.setBehaviour(GitLabSimulatorProperties.Profile.GITLAB_17, true, Duration.ZERO);
        var iid = open("merged-results", "grants/db.txt", "alice\nbob\n");
        gitlab.push(PROJECT, "merged-results", Map.of("grants/db.txt", "alice\nbob\nfrank\n"), "More");
        var head = gitlab.mergeRequestSha(PROJECT, iid);

        @SuppressWarnings("unchecked")
        var pipeline = (Map<String, Object>) gitlab.getMergeRequest(PROJECT, iid, false, false).get("head_pipeline");
        assertThat(pipeline).isNotNull();
        assertThat(pipeline.get("sha")).as("the merge commit's sha").isNotEqualTo(head);
        assertThat(pipeline.get("source")).isEqualTo("merge_request_event");
    }

    @Test
    void everyPipelineStatusCanBeSet() {
        var iid = open("statuses", "grants/db.txt", "alice\nbob\n");
        for (var outcome : PipelineOutcome.values()) {
            gitlab.forcePipeline(PROJECT, iid, outcome);
            var expected = switch (outcome) {
                case AUTO, HANG -> "pending";
                case SUCCESS -> "success";
                case FAILED -> "failed";
                default -> outcome.name().toLowerCase(java.util.Locale.ROOT);
            };
            assertThat(pipelineStatus(iid)).as("%s", outcome).isEqualTo(expected);
        }
    }

    @Test
    void aFastForwardProjectRefusesAMergeRequestWhoseTargetMovedOnAsEachProfileDoesUntilItIsRebased() {
        gitlab.setMergeMethod(PROJECT, GitLabProjectDefaults.MergeMethod.FF);
        assertThat(gitlab.projectJson(PROJECT).get("merge_method")).isEqualTo("ff");
        var first = open("first", "grants/db.txt", "alice\nbob\n");
        var second = open("second", "grants/cache.txt", "dave\n");
        clock.advance(CHECKING);
        assertThat(merge(first, gitlab.mergeRequestSha(PROJECT, first))).isEqualTo(200);
        assertThat(gitlab.branchHead(PROJECT, "main")).as("fast-forward: no merge commit").contains(gitlab.mergeRequestSha(PROJECT, first));
        assertThat(gitlab.getMergeRequest(PROJECT, first, false, false).get("merge_commit_sha")).isNull();
        clock.advance(CHECKING);

        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).as("no conflict, but behind main").isEqualTo("need_rebase");
        assertThat(gitlab.getMergeRequest(PROJECT, second, false, false).get("detailed_merge_status")).isEqualTo("need_rebase");
        assertThat(merge(second, gitlab.mergeRequestSha(PROJECT, second))).as("17/18.x").isEqualTo(422);
        gitlab.setBehaviour(GitLabSimulatorProperties.Profile.GITLAB_19, false, Duration.ZERO);
        assertThat(merge(second, gitlab.mergeRequestSha(PROJECT, second))).as("19.x").isEqualTo(405);

        gitlab.rebase(PROJECT, second, author);
        clock.advance(REBASE);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).as("the rebased head is checked").isEqualTo("checking");
        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("mergeable");
        assertThat(merge(second, gitlab.mergeRequestSha(PROJECT, second))).isEqualTo(200);
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(gitlab.file(PROJECT, "main", "grants/cache.txt")).contains("dave\n");
        assertThat(gitlab.branchHead(PROJECT, "main")).contains(gitlab.mergeRequestSha(PROJECT, second));
    }

    @Test
    void aRebaseMergeProjectNeedsARebasedSourceAndMergesWithAMergeCommit() {
        gitlab.setMergeMethod(PROJECT, GitLabProjectDefaults.MergeMethod.REBASE_MERGE);
        var first = open("first", "grants/db.txt", "alice\nbob\n");
        var second = open("second", "grants/cache.txt", "dave\n");
        clock.advance(CHECKING);
        assertThat(merge(first, gitlab.mergeRequestSha(PROJECT, first))).isEqualTo(200);
        assertThat(gitlab.getMergeRequest(PROJECT, first, false, false).get("merge_commit_sha")).isNotNull();
        clock.advance(CHECKING);
        assertThat(gitlab.detailedMergeStatus(PROJECT, second)).isEqualTo("need_rebase");
        assertThat(merge(second, gitlab.mergeRequestSha(PROJECT, second))).isEqualTo(422);
    }

    @Test
    void aProjectWithoutCiCreatesNoPipelineAndItsMergeRequestsHaveNoHeadPipeline() {
        gitlab.ensureProject("platform/no-ci", Map.of("grants/db.txt", "alice\n"));
        gitlab.setCi("platform/no-ci", false);
        gitlab.createBranch("platform/no-ci", "feature", "main", author);
        gitlab.commit("platform/no-ci", "feature", "Change", null, false,
                List.of(action("update", "grants/db.txt", "alice\nbob\n")), author);
        var iid = (Long) gitlab.createMergeRequest("platform/no-ci", "feature", "main", "Change", "d", author).get("iid");
        gitlab.push("platform/no-ci", "feature", Map.of("grants/db.txt", "alice\nbob\ncarol\n"), "More");
        clock.advance(CHECKING);

        var json = gitlab.getMergeRequest("platform/no-ci", iid, false, false);
        assertThat(json).containsEntry("head_pipeline", null).containsEntry("detailed_merge_status", "mergeable");
        assertThat(gitlab.mergeRequestPipelines("platform/no-ci", iid)).isEmpty();
        gitlab.merge("platform/no-ci", iid, gitlab.mergeRequestSha("platform/no-ci", iid), author);
        assertThat(gitlab.mergeRecords().getLast().pipelineStatus()).as("merged without a pipeline").isNull();
        assertThat(pipelineStatus(open("with-ci", "grants/db.txt", "alice\nerin\n"))).as("other projects keep CI")
                .isEqualTo("pending");
    }

    @Test
    void projectDefaultsApplyToTheSeededProjectsAndToThoseCreatedLaterAndGarbledValuesFallBack() {
        gitlab.apply(new GitLabProjectDefaults("fast-forward", List.of(PROJECT, "team/later"), null));
        assertThat(gitlab.projectJson(PROJECT).get("merge_method")).isEqualTo("ff");
        gitlab.ensureProject("team/later", Map.of("a.txt", "a"));
        assertThat(gitlab.projectJson("team/later").get("merge_method")).isEqualTo("ff");
        gitlab.createBranch("team/later", "feature", "main", author);
        gitlab.commit("team/later", "feature", "Change", null, false, List.of(action("update", "a.txt", "b")), author);
        var iid = (Long) gitlab.createMergeRequest("team/later", "feature", "main", "Change", "d", author).get("iid");
        assertThat(gitlab.mergeRequestPipelines("team/later", iid)).isEmpty();

        assertThat(new GitLabProjectDefaults("squash", null, null).method()).isEqualTo(GitLabProjectDefaults.MergeMethod.MERGE);
        assertThat(new GitLabProjectDefaults(null, null, null).projectsWithoutCi()).isEmpty();
        assertThat(new GitLabProjectDefaults(" Rebase-Merge ", null, null).mergeMethod()).isEqualTo("rebase_merge");
    }

    @Test
    void theDefaultBranchIsProtectedNoAccountPushesToItAndMergeRequestsStillMergeIntoIt() {
        assertThat(gitlab.isProtected(PROJECT, "main")).isTrue();
        assertThat(gitlab.branchJson(PROJECT, "main")).containsEntry("protected", true).containsEntry("can_push", false);

        for (var force : List.of(false, true)) {
            assertThatThrownBy(() -> gitlab.commit(PROJECT, "main", "Straight to main", force ? "main" : null, force,
                    List.of(action("update", "grants/db.txt", "mallory\n")), author))
                    .isInstanceOfSatisfying(GitLabError.class, e -> {
                        assertThat(e.status()).isEqualTo(403);
                        assertThat(e.getMessage()).contains("not allowed to push");
                    });
        }
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt").orElse("")).doesNotContain("mallory");

        var iid = open("feature", "grants/db.txt", "alice\nbob\n");
        clock.advance(CHECKING);
        clock.advance(PIPELINE);
        assertThat(merge(iid, gitlab.mergeRequestSha(PROJECT, iid))).as("merging into a protected branch").isEqualTo(200);
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\nbob\n");
        assertThat(gitlab.branchJson(PROJECT, "feature")).containsEntry("protected", false).containsEntry("can_push", true);
    }

    @Test
    void aProtectedSourceBranchRefusesTheRewriteAndProtectionCanBeLiftedOrSwitchedOff() {
        var iid = open("feature", "grants/db.txt", "alice\nbob\n");
        gitlab.protectBranch(PROJECT, "feature", true);

        assertThatThrownBy(() -> gitlab.commit(PROJECT, "feature", "Generated again", "main", true,
                List.of(action("update", "grants/db.txt", "alice\ncarol\n")), author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(403));
        gitlab.protectBranch(PROJECT, "feature", false);
        gitlab.commit(PROJECT, "feature", "Generated again", "main", true,
                List.of(action("update", "grants/db.txt", "alice\ncarol\n")), author);
        assertThat(gitlab.file(PROJECT, "feature", "grants/db.txt")).contains("alice\ncarol\n");

        gitlab.apply(new GitLabProjectDefaults(null, null, false));
        assertThat(gitlab.isProtected(PROJECT, "main")).isFalse();
        commit("main", action("update", "grants/db.txt", "alice\ndave\n"));
        assertThat(gitlab.file(PROJECT, "main", "grants/db.txt")).contains("alice\ndave\n");
        assertThat(new GitLabProjectDefaults(null, null, null).protectDefaultBranch()).as("GitLab's default").isTrue();
        assertThat(iid).isPositive();
    }

    private long open(String branch, String path, String content) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        var exists = gitlab.file(PROJECT, branch, path).isPresent();
        commit(branch, action(exists ? "update" : "create", path, content));
        var json = gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "operations: " + branch, author);
        return (Long) json.get("iid");
    }

    @Test
    void mergingIntoAProtectedBranchAsAnAccountNotAllowedToMergeAnswers401BeforeAnyOtherCheckOnBothProfiles() {
        for (var profile : GitLabSimulatorProperties.Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            var iid = open("rights-" + profile.settingName(), "grants/" + profile.settingName() + ".txt", "alice\n");
            gitlab.protectBranch(PROJECT, "main", true);
            gitlab.allowedToMerge(PROJECT, "main", java.util.Set.of("maintainer"));
            var sha = gitlab.mergeRequestSha(PROJECT, iid);

            assertThat(merge(iid, sha)).as("%s, still checking", profile).isEqualTo(401);
            clock.advance(CHECKING);
            assertThat(merge(iid, sha)).as("%s", profile).isEqualTo(401);
            gitlab.allowedToMerge(PROJECT, "main", java.util.Set.of());
            assertThat(merge(iid, sha)).as("%s, every account allowed again", profile).isEqualTo(200);
        }
    }

    @Test
    void aMergeAPushRuleRefusesAfterEveryCheckPassedAnswers422WithMergeErrorAndNoConflict() {
        var iid = open("hooked", "grants/hooked.txt", "alice\n");
        clock.advance(CHECKING);
        gitlab.refuseMerges(PROJECT, 1, "GitLab: pre-receive hook declined");
        var sha = gitlab.mergeRequestSha(PROJECT, iid);

        assertThat(merge(iid, sha)).isEqualTo(422);
        var json = gitlab.getMergeRequest(PROJECT, iid, false, false);
        assertThat(json).containsEntry("merge_error", "GitLab: pre-receive hook declined").containsEntry("has_conflicts", false)
                .containsEntry("detailed_merge_status", "mergeable").containsEntry("state", "opened");
        assertThat(merge(iid, sha)).isEqualTo(200);
    }

    @SafeVarargs
    private void commit(String branch, Map<String, Object>... actions) {
        gitlab.commit(PROJECT, branch, "Change", null, false, List.of(actions), author);
    }

    private static Map<String, Object> action(String action, String path, String content) {
        return Map.of("action", action, "file_path", path, "content", content);
    }

    private String pipelineStatus(long iid) {
        return (String) gitlab.mergeRequestPipelines(PROJECT, iid).getFirst().get("status");
    }
}
