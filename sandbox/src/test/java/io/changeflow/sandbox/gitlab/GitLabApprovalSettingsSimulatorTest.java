package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the approval settings the simulator takes from GitLab's code (cited in {@link GitLabSimulator}): the
 * author's and committers' approvals ({@code merge_requests_author_approval},
 * {@code merge_requests_disable_committers_approval}) and the code owners' approvals removed when their files change
 * ({@code selective_code_owner_removals}). GitLab's defaults: all off.
 */
class GitLabApprovalSettingsSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(1);

    @BeforeEach
    void start() {
        seed(GitLabSimulatorProperties.defaults().withTimings(CHECKING, Duration.ofSeconds(5), Duration.ofSeconds(1)), null);
        gitlab.resetApprovalsOnPush(PROJECT, false);
    }

    @Test
    void theAuthorMayApproveItsOwnMergeRequestOnlyWhereTheProjectAllowsIt() {
        var iid = open("own", author);
        assertThat(approve(iid, author)).as("GitLab's default: the author may not").isEqualTo(401);
        assertThat(gitlab.approvalSettingsJson(PROJECT, author)).containsEntry("merge_requests_author_approval", false);

        gitlab.setApprovalSettings(PROJECT, true, false, false);

        assertThat(approve(iid, author)).isEqualTo(201);
        assertThat(gitlab.approvalSettingsJson(PROJECT, author)).containsEntry("merge_requests_author_approval", true);
    }

    @Test
    void anAccountThatCommittedToTheMergeRequestMayNotApproveWhereCommittersApprovalIsDisabled() {
        var iid = open("committed", author);
        commit("committed", "grants/by-bot1.txt", bot1);
        assertThat(approve(iid, bot1)).as("GitLab's default: committers may approve").isEqualTo(201);

        var other = open("committed-2", author);
        commit("committed-2", "grants/by-bot1-2.txt", bot1);
        gitlab.setApprovalSettings(PROJECT, false, true, false);

        assertThat(approve(other, bot1)).isEqualTo(401);
        assertThat(approve(other, bot2)).as("bot2 committed nothing").isEqualTo(201);
        assertThat(gitlab.approvalSettingsJson(PROJECT, author)).containsEntry("merge_requests_disable_committers_approval", true);
    }

    @Test
    void aPushRemovesOnlyTheApprovalsOfTheCodeOwnersOfTheFilesItChangedWhereTheProjectSaysSo() {
        gitlab.setApprovalRules(PROJECT, List.of(GitLabApprovalRules.Rule.codeOwners("grants/*.txt", Set.of("approval-bot-1"), 1),
                GitLabApprovalRules.Rule.codeOwners("/docs/", Set.of("approval-bot-2"), 1)));
        var iid = open("owned", author);
        approve(iid, bot1);
        approve(iid, bot2);
        commit("owned", "grants/more.txt", author);
        assertThat(gitlab.approvedBy(PROJECT, iid)).as("GitLab's default: approvals stay")
                .containsExactly("approval-bot-1", "approval-bot-2");

        gitlab.setApprovalSettings(PROJECT, false, false, true);
        commit("owned", "grants/even-more.txt", author);

        assertThat(gitlab.approvedBy(PROJECT, iid)).as("only the owner of grants/*.txt").containsExactly("approval-bot-2");
        assertThat(gitlab.approvalSettingsJson(PROJECT, author)).containsEntry("selective_code_owner_removals", true);
        gitlab.resetApprovalsOnPush(PROJECT, true);
        commit("owned", "notes/changes.md", author);
        assertThat(gitlab.approvedBy(PROJECT, iid)).as("reset on push removes all").isEmpty();
    }

    @Test
    void codeOwnersPatternsFollowGitLabsSyntax() {
        assertThat(GitLabSimulator.codeOwnersPattern("grants/*.txt", "grants/db.txt")).isTrue();
        assertThat(GitLabSimulator.codeOwnersPattern("grants/*.txt", "grants/sub/db.txt")).isFalse();
        assertThat(GitLabSimulator.codeOwnersPattern("*.txt", "grants/sub/db.txt")).as("no slash: anywhere").isTrue();
        assertThat(GitLabSimulator.codeOwnersPattern("/docs/", "docs/a/b.md")).isTrue();
        assertThat(GitLabSimulator.codeOwnersPattern("/docs/", "grants/docs/b.md")).isFalse();
        assertThat(GitLabSimulator.codeOwnersPattern("grants/**", "grants/a/b.txt")).isTrue();
    }

    private long open(String branch, GitLabSimulator.User by) {
        gitlab.createBranch(PROJECT, branch, "main", by);
        commit(branch, "grants/" + branch + ".txt", by);
        var iid = (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", by).get("iid");
        clock.advance(CHECKING);
        return iid;
    }

    private void commit(String branch, String path, GitLabSimulator.User by) {
        gitlab.commit(PROJECT, branch, "Change " + path, null, false,
                List.of(Map.of("action", "create", "file_path", path, "content", "bob\n")), by);
        clock.advance(CHECKING);
    }

    private int approve(long iid, GitLabSimulator.User by) {
        try {
            gitlab.approve(PROJECT, iid, null, null, by);
            return 201;
        } catch (GitLabError e) {
            return e.status();
        }
    }
}
