package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.PushRefused;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.sandbox.gitlab.GitLabApprovalRules;
import io.changeflow.sandbox.gitlab.GitLabPushRule;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 35, the adapter against the simulator's GitLab settings on both profiles: a draft, unresolved discussions
 * and required external status checks are read as {@link MergeResult#BLOCKED} (a person's job, with GitLab's
 * {@code detailed_merge_status} for the message), never as a conflict; a namespace requiring the {@code sha} changes
 * nothing (the merge is always pinned); the rebase endpoint's 409 (not queued) and 403 (the branch may not be
 * rewritten) reach the workflow as what they are instead of being read as "a rebase is already in progress".
 */
class GitLabMergeChecksTest extends AgainstProjectOfItsOwn {

    @Override
    String projectPath() {
        return "platform/checks";
    }


    @ParameterizedTest
    @EnumSource(Profile.class)
    void aDraftUnresolvedDiscussionsPendingStatusChecksAndAMergeAfterTimeAreEachReadAsBlockedWithGitLabsStatus(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().requireResolvedDiscussions(project, true);
        server.gitlab().requireStatusChecks(project, true);
        var iid = open("blocked");
        server.gitlab().setStatusChecks(project, iid, "passed");

        server.gitlab().setDraft(project, iid, true);
        assertBlocked(iid, "draft_status");
        server.gitlab().setDraft(project, iid, false);

        server.gitlab().setUnresolvedDiscussions(project, iid, 1);
        assertBlocked(iid, "discussions_not_resolved");
        server.gitlab().setUnresolvedDiscussions(project, iid, 0);

        server.gitlab().setStatusChecks(project, iid, "failed");
        assertBlocked(iid, "status_checks_must_pass");
        server.gitlab().setStatusChecks(project, iid, "passed");

        server.gitlab().setMergeAfter(project, iid, java.time.Instant.now().plus(Duration.ofDays(1)));
        assertBlocked(iid, "merge_time");
        server.gitlab().setMergeAfter(project, iid, null);

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aMergeAfterTimeIsReadWithMergeTimeSoTheWorkflowCanWaitForItAndNotWithoutIt(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("later");
        var at = java.time.Instant.now().plus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        assertThat(gitlab.get(project, iid).mergeAfter()).as("none set").isEmpty();

        server.gitlab().setMergeAfter(project, iid, at);

        var read = gitlab.getWithHeadPipeline(project, iid);
        assertThat(read.detailedMergeStatus()).isEqualTo("merge_time");
        assertThat(read.mergeAfter()).contains(at);
        assertThat(gitlab.get(project, iid).mergeAfter()).contains(at);

        server.gitlab().setMergeAfter(project, iid, java.time.Instant.now().minusSeconds(60));
        assertThat(gitlab.get(project, iid).mergeAfter()).as("passed: mergeable, not read").isEmpty();
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @Test
    void eachPushRuleRefusalOfABranchOrCommitLeavesAsPushRefusedWithGitLabsMessage() {
        gitlab.createBranch(project, "rules", "main");
        var rules = Map.of(
                new GitLabPushRule("", "", "", "@corp\\.example$", "", false, false, false), "Author's email '",
                new GitLabPushRule("", "", "", "", "\\.txt$", false, false, false), "was prohibited by the pattern",
                new GitLabPushRule("", "", "", "", "", false, true, false), "was prohibited by the pattern",
                GitLabPushRule.commitMessage("JIRA-\\d+"), "Commit message does not follow the pattern");
        rules.forEach((rule, message) -> {
            server.gitlab().setPushRule(project, rule);
            var file = rule.preventSecrets() ? "keys/deploy.pem" : "grants/rules.txt";
            assertThatThrownBy(() -> gitlab.commit(project, "rules", "Grant", List.of(new FileChange(file, "bob\n"))))
                    .isInstanceOfSatisfying(PushRefused.class, e -> {
                        assertThat(e.rule()).contains(message);
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.isTransient()).isFalse();
                    });
        });
        server.gitlab().setPushRule(project, GitLabPushRule.branchName("^feature/"));
        assertThatThrownBy(() -> gitlab.createBranch(project, "changeflow/x", "main"))
                .isInstanceOfSatisfying(PushRefused.class, e -> assertThat(e.rule()).startsWith("Branch name does not follow"));
        server.gitlab().setPushRule(project, new GitLabPushRule("", "", "", "", "", true, false, false));
        gitlab.commit(project, "rules", "Grant", List.of(new FileChange("grants/rules.txt", "bob\n")));
        server.gitlab().setPushRule(project, null);
    }

    /**
     * Issue 35: with {@code selective_code_owner_removals} (ee/app/services/ee/merge_requests/base_service.rb) a push
     * removes only the approvals of the code owners of the files it changed; the adapter reads that bot's approval as
     * missing and the bot approves the new head again (what the workflow does before every merge).
     */
    @Test
    void afterASelectiveCodeOwnerRemovalTheOwnersApprovalIsReadAsMissingAndGivenAgainForTheNewHead() {
        server.gitlab().resetApprovalsOnPush(project, false);
        server.gitlab().setApprovalRules(project, List.of(
                GitLabApprovalRules.Rule.codeOwners("grants/*.txt", Set.of("approval-bot-1"), 1),
                GitLabApprovalRules.Rule.codeOwners("/docs/", Set.of("approval-bot-2"), 1)));
        server.gitlab().setApprovalSettings(project, false, false, true);
        var iid = open("owned");
        gitlab.approve(project, iid, "approval-bot-1", gitlab.get(project, iid).sha());
        gitlab.approve(project, iid, "approval-bot-2", gitlab.get(project, iid).sha());
        assertThat(gitlab.approvedBy(project, iid)).containsExactlyInAnyOrder("approval-bot-1", "approval-bot-2");

        gitlab.commit(project, "owned", "More", List.of(new FileChange("grants/more.txt", "carol\n")));

        assertThat(gitlab.approvedBy(project, iid)).as("only the owner of grants/*.txt lost it").containsExactly("approval-bot-2");
        var head = gitlab.branchHead(project, "owned").orElseThrow();
        gitlab.approve(project, iid, "approval-bot-1", head);
        assertThat(gitlab.approvedBy(project, iid)).containsExactlyInAnyOrder("approval-bot-1", "approval-bot-2");
    }

    @Test
    void aNamespaceThatRequiresTheShaMergesBecauseTheMergeIsAlwaysPinned() {
        server.gitlab().setBehaviour(Profile.GITLAB_19, false, Duration.ZERO);
        server.gitlab().requireShaForMerge(project, true);
        var iid = open("pinned");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aRebaseGitLabCouldNotQueueLeavesWith409AndOneOfAProtectedSourceBranchWith403(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("rebase");

        server.gitlab().refuseRebaseEnqueue(project, 1);
        assertThatThrownBy(() -> gitlab.rebase(project, iid)).isInstanceOfSatisfying(ExternalCallException.class, e -> {
            assertThat(e.status()).isEqualTo(409);
            assertThat(e.isTransient()).isFalse();
        });
        assertThat(gitlab.get(project, iid).rebaseInProgress()).as("nothing was started").isFalse();

        server.gitlab().protectBranch(project, "rebase", true);
        assertThatThrownBy(() -> gitlab.rebase(project, iid)).isInstanceOfSatisfying(ExternalCallException.class,
                e -> assertThat(e.status()).isEqualTo(403));
        server.gitlab().protectBranch(project, "rebase", false);

        gitlab.rebase(project, iid);
    }

    private void assertBlocked(long iid, String detailedMergeStatus) {
        assertThat(gitlab.get(project, iid).detailedMergeStatus()).isEqualTo(detailedMergeStatus);
        assertThat(mergeAtHead(iid)).as(detailedMergeStatus).isEqualTo(MergeResult.BLOCKED);
    }

    private MergeResult mergeAtHead(long iid) {
        return gitlab.merge(project, iid, gitlab.get(project, iid).sha());
    }

    private long open(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + branch, List.of(new FileChange("grants/" + branch + ".txt", "bob\n")));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }
}
