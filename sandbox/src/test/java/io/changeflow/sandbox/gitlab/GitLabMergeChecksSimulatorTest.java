package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the merge checks and refusals the simulator takes from GitLab's code (each cited next to the behaviour in
 * {@link GitLabSimulator}): draft, unresolved discussions and external status checks as settings, the namespace's
 * {@code require_sha_for_merge}, the order of the merge answers per profile, and the rebase endpoint's 403 and 409.
 * GitLab's defaults leave every one of these off.
 */
class GitLabMergeChecksSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(2);
    private static final Duration PIPELINE = Duration.ofSeconds(10);

    @BeforeEach
    void start() {
        seed(GitLabSimulatorProperties.defaults().withTimings(CHECKING, PIPELINE, Duration.ofSeconds(1)), null);
    }

    @Test
    void aDraftIsRefused405OnBothProfilesWithDraftStatusUntilMarkedReady() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            var iid = ready("draft-" + profile.settingName());
            gitlab.setDraft(PROJECT, iid, true);

            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false)).containsEntry("detailed_merge_status", "draft_status")
                    .containsEntry("draft", true);
            assertThat(merge(iid)).as("%s", profile).isEqualTo(405);
            gitlab.setDraft(PROJECT, iid, false);
            assertThat(merge(iid)).as("%s, marked ready", profile).isEqualTo(200);
        }
    }

    @Test
    void unresolvedDiscussionsBlockOnlyWhereTheProjectRequiresThemResolved() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            var free = ready("talk-free-" + profile.settingName());
            gitlab.setUnresolvedDiscussions(PROJECT, free, 2);
            assertThat(merge(free)).as("%s, GitLab's default: not required", profile).isEqualTo(200);

            gitlab.requireResolvedDiscussions(PROJECT, true);
            var iid = ready("talk-" + profile.settingName());
            gitlab.setUnresolvedDiscussions(PROJECT, iid, 1);
            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false))
                    .containsEntry("detailed_merge_status", "discussions_not_resolved")
                    .containsEntry("blocking_discussions_resolved", false);
            assertThat(gitlab.projectJson(PROJECT)).containsEntry("only_allow_merge_if_all_discussions_are_resolved", true);
            assertThat(merge(iid)).as("%s", profile).isEqualTo(405);
            gitlab.setUnresolvedDiscussions(PROJECT, iid, 0);
            assertThat(merge(iid)).as("%s, resolved", profile).isEqualTo(200);
            gitlab.requireResolvedDiscussions(PROJECT, false);
        }
    }

    @Test
    void requiredExternalStatusChecksBlockUntilTheyPassed() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            gitlab.requireStatusChecks(PROJECT, true);
            var iid = ready("checks-" + profile.settingName());

            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false))
                    .containsEntry("detailed_merge_status", "status_checks_must_pass");
            assertThat(merge(iid)).as("%s, pending", profile).isEqualTo(405);
            gitlab.setStatusChecks(PROJECT, iid, "failed");
            assertThat(merge(iid)).as("%s, failed", profile).isEqualTo(405);
            gitlab.setStatusChecks(PROJECT, iid, "passed");
            assertThat(merge(iid)).as("%s, passed", profile).isEqualTo(200);
            gitlab.requireStatusChecks(PROJECT, false);
        }
    }

    @Test
    void aMergeAfterTimeInTheFutureIsRefused405WithMergeTimeOnBothProfilesUntilItPassed() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            var iid = ready("later-" + profile.settingName());
            var at = clock.instant().plus(Duration.ofHours(1));
            gitlab.setMergeAfter(PROJECT, iid, at);
            gitlab.setDraft(PROJECT, iid, true);

            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false))
                    .as("merge time is checked before draft").containsEntry("detailed_merge_status", "merge_time")
                    .containsEntry("merge_after", at.toString());
            assertThat(merge(iid)).as("%s", profile).isEqualTo(405);
            gitlab.setDraft(PROJECT, iid, false);
            clock.advance(Duration.ofHours(1));
            assertThat(merge(iid)).as("%s, the time has come", profile).isEqualTo(200);
        }
    }

    @Test
    void aDeletedSourceBranchIsBrokenStatusOnGitLab17AndCommitsStatusOnGitLab19() {
        var iid = ready("deleted");
        gitlab.deleteBranch(PROJECT, "deleted");

        gitlab.setBehaviour(Profile.GITLAB_17, false, Duration.ZERO);
        assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false)).containsEntry("detailed_merge_status", "broken_status")
                .containsEntry("state", "opened");
        assertThat(merge(iid, null)).isEqualTo(422);
        gitlab.setBehaviour(Profile.GITLAB_19, false, Duration.ZERO);
        assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false)).containsEntry("detailed_merge_status", "commits_status");
        assertThat(merge(iid, null)).isEqualTo(405);
    }

    @Test
    void aMergeWithoutShaIsRefused400OnlyWhereTheNamespaceRequiresItAndOnlyOnGitLab19() {
        gitlab.setBehaviour(Profile.GITLAB_19, false, Duration.ZERO);
        var merged = ready("no-sha");
        assertThat(merge(merged, null)).as("GitLab's default: require_sha_for_merge off").isEqualTo(200);

        gitlab.requireShaForMerge(PROJECT, true);
        var iid = ready("no-sha-required");
        gitlab.allowedToMerge(PROJECT, "main", java.util.Set.of("maintainer"));
        assertThat(merge(iid, null)).as("400 before the 401 of can_be_merged_by?").isEqualTo(400);
        gitlab.allowedToMerge(PROJECT, "main", java.util.Set.of());

        gitlab.setBehaviour(Profile.GITLAB_17, false, Duration.ZERO);
        assertThat(merge(iid, null)).as("17.x has no such setting").isEqualTo(200);
    }

    @Test
    void aStaleShaIs409BeforeNotMergeableOnGitLab19AndAfterItOnGitLab17() {
        var stale = "0".repeat(40);
        gitlab.setBehaviour(Profile.GITLAB_19, false, Duration.ZERO);
        var iid = ready("stale-19");
        gitlab.setDraft(PROJECT, iid, true);
        assertThat(merge(iid, stale)).isEqualTo(409);

        gitlab.setBehaviour(Profile.GITLAB_17, false, Duration.ZERO);
        assertThat(merge(iid, stale)).isEqualTo(405);
        gitlab.setDraft(PROJECT, iid, false);
        assertThat(merge(iid, stale)).isEqualTo(409);
    }

    @Test
    void aRebaseOfAProtectedSourceBranchIs403AndOneGitLabCouldNotQueueIs409WithNothingStarted() {
        var iid = ready("rebase-refused");
        gitlab.protectBranch(PROJECT, "rebase-refused", true);
        assertThat(rebase(iid)).isEqualTo("403 Forbidden - Source branch is protected from force push");
        gitlab.protectBranch(PROJECT, "rebase-refused", false);

        gitlab.refuseRebaseEnqueue(PROJECT, 1);
        assertThat(rebase(iid)).startsWith("Failed to enqueue the rebase operation");
        assertThat(gitlab.getMergeRequest(PROJECT, iid, true, false)).containsEntry("rebase_in_progress", false);
        assertThat(rebase(iid)).isEqualTo("202");

        gitlab.setRole(PROJECT, "approval-bot-1", 20);
        assertThat(rebase(iid, bot1)).isEqualTo("403 Forbidden - Cannot push to source branch");
    }

    /** A merge request whose checking and pipeline are done. */
    private long ready(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        gitlab.commit(PROJECT, branch, "Change", null, false,
                List.of(Map.of("action", "create", "file_path", "grants/" + branch + ".txt", "content", "bob\n")), author);
        var iid = (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", author).get("iid");
        clock.advance(CHECKING);
        clock.advance(PIPELINE);
        return iid;
    }

    private int merge(long iid) {
        return merge(iid, gitlab.mergeRequestSha(PROJECT, iid));
    }

    private String rebase(long iid) {
        return rebase(iid, author);
    }

    /** "202", or GitLab's message of the refusal. */
    private String rebase(long iid, GitLabSimulator.User caller) {
        try {
            gitlab.rebase(PROJECT, iid, caller);
            return "202";
        } catch (GitLabError e) {
            return String.valueOf(e.body().get("message"));
        }
    }
}
