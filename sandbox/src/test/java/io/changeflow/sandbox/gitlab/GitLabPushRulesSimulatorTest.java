package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.sandbox.gitlab.GitLabProjectDefaults.MergeMethod;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a project's push rule as GitLab answers and enforces it (see {@link GitLabPushRule} for the files): none by
 * default, readable by Maintainers only, refusing commits, new branches and merge commits with GitLab's messages.
 */
class GitLabPushRulesSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(1);
    private static final Duration PIPELINE = Duration.ofSeconds(5);

    @BeforeEach
    void start() {
        seed(GitLabSimulatorProperties.defaults().withTimings(CHECKING, PIPELINE, Duration.ofSeconds(1)), null);
    }

    @Test
    void aProjectHasNoPushRuleByDefaultAndOnlyMaintainersMayReadOne() {
        assertThat(gitlab.pushRuleJson(PROJECT, author)).isEmpty();

        gitlab.setPushRule(PROJECT, GitLabPushRule.commitMessage("JIRA-\\d+"));

        assertThat(gitlab.pushRuleJson(PROJECT, author).orElseThrow()).containsEntry("commit_message_regex", "JIRA-\\d+")
                .containsEntry("branch_name_regex", "").containsEntry("prevent_secrets", false)
                .containsEntry("reject_unsigned_commits", null).containsKey("created_at");
        gitlab.setRole(PROJECT, "changeflow-bot", 30);
        assertThatThrownBy(() -> gitlab.pushRuleJson(PROJECT, author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(403));
    }

    @Test
    void aCommitWhoseMessageTheRuleRefusesIs400WithGitLabsMessageAndNothingCommitted() {
        gitlab.setPushRule(PROJECT, GitLabPushRule.commitMessage("JIRA-\\d+"));
        gitlab.createBranch(PROJECT, "msg", "main", author);
        var before = gitlab.branchHead(PROJECT, "msg").orElseThrow();

        assertThatThrownBy(() -> commit("msg", "Grant db to bob"))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.body()).containsEntry("message", "Commit message does not follow the pattern 'JIRA-\\d+'");
                });
        assertThat(gitlab.branchHead(PROJECT, "msg")).contains(before);

        commit("msg", "Grant db to bob\n\nRefs JIRA-12\n");
        assertThat(gitlab.branchHead(PROJECT, "msg")).isNotEqualTo(java.util.Optional.of(before));
    }

    @Test
    void aNewBranchTheRuleRefusesIs400ThroughTheBranchesAndTheCommitsApi() {
        gitlab.setPushRule(PROJECT, GitLabPushRule.branchName("^feature/"));

        assertThatThrownBy(() -> gitlab.createBranch(PROJECT, "changeflow/1", "main", author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.body())
                        .containsEntry("message", "Branch name does not follow the pattern '^feature/'"));
        assertThatThrownBy(() -> gitlab.commit(PROJECT, "changeflow/2", "Change", "main", false, actions("x"), author))
                .isInstanceOfSatisfying(GitLabError.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(gitlab.branchHead(PROJECT, "changeflow/1")).isEmpty();
        assertThat(gitlab.branchHead(PROJECT, "changeflow/2")).isEmpty();
        gitlab.createBranch(PROJECT, "feature/ok", "main", author);
    }

    @Test
    void aMergeCommitTheRuleRefusesFails422WithMergeErrorOnBothProfilesButAFastForwardWritesNone() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            gitlab.setPushRule(PROJECT, null);
            var iid = ready("merge-" + profile.settingName());
            gitlab.setPushRule(PROJECT, GitLabPushRule.commitMessage("^Changeflow-Operation: "));

            assertThat(merge(iid, gitlab.mergeRequestSha(PROJECT, iid))).as("%s", profile).isEqualTo(422);
            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false))
                    .containsEntry("merge_error", "Commit message does not follow the pattern '^Changeflow-Operation: '")
                    .containsEntry("state", "opened").containsEntry("has_conflicts", false);
        }
        gitlab.setMergeMethod(PROJECT, MergeMethod.FF);
        gitlab.setPushRule(PROJECT, null);
        var ff = ready("merge-ff");
        gitlab.setPushRule(PROJECT, GitLabPushRule.commitMessage("^Changeflow-Operation: "));
        assertThat(merge(ff, gitlab.mergeRequestSha(PROJECT, ff))).as("no merge commit to check").isEqualTo(200);
    }

    /** A merge request whose checking and pipeline are done; its commit says the trailer the rules above ask for. */
    private long ready(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        commit(branch, "Change\n\nChangeflow-Operation: 1\n");
        var iid = (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", author).get("iid");
        clock.advance(CHECKING);
        clock.advance(PIPELINE);
        return iid;
    }

    @Test
    void anAuthorEmailTheRuleDoesNotAllowIs400WithGitLabsMessageAndNothingCommitted() {
        gitlab.setPushRule(PROJECT, new GitLabPushRule("", "", "", "@example\\.com$", "", false, false, false));
        gitlab.createBranch(PROJECT, "email", "main", author);
        var before = gitlab.branchHead(PROJECT, "email").orElseThrow();

        assertThatThrownBy(() -> commit("email", "Grant db to bob"))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.body()).containsEntry("message",
                            "Author's email 'changeflow-bot@sandbox.invalid' does not follow the pattern '@example\\.com$'");
                });
        assertThat(gitlab.branchHead(PROJECT, "email")).contains(before);

        gitlab.setPushRule(PROJECT, new GitLabPushRule("", "", "", "@sandbox\\.invalid$", "", false, false, false));
        commit("email", "Grant db to bob");
    }

    @Test
    void aNewFileTheFileNameRuleProhibitsIs400AndAFileAlreadyThereMayStillChange() {
        gitlab.setPushRule(PROJECT, new GitLabPushRule("", "", "", "", "\\.txt$", false, false, false));
        gitlab.createBranch(PROJECT, "names", "main", author);

        assertThatThrownBy(() -> commit("names", "Grant"))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.body()).containsEntry("message",
                            "File name grants/names.txt was prohibited by the pattern \"\\.txt$\".");
                });
        // only new files are checked (changed_path.new_file?): grants/db.txt exists on main
        gitlab.commit(PROJECT, "names", "Update", null, false,
                List.of(Map.of("action", "update", "file_path", "grants/db.txt", "content", "alice\nbob\n")), author);
    }

    @Test
    void preventSecretsRefusesANewFileNamedLikeASecretAndLetsOthersThrough() {
        gitlab.setPushRule(PROJECT, new GitLabPushRule("", "", "", "", "", false, true, false));
        gitlab.createBranch(PROJECT, "secrets", "main", author);

        assertThatThrownBy(() -> gitlab.commit(PROJECT, "secrets", "Key", null, false,
                List.of(Map.of("action", "create", "file_path", "keys/deploy.pem", "content", "x\n")), author))
                .isInstanceOfSatisfying(GitLabError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(String.valueOf(e.body().get("message"))).startsWith("File name keys/deploy.pem was prohibited by the pattern");
                });
        commit("secrets", "Grant");
    }

    @Test
    void theMemberCheckNeverRefusesACommitMadeThroughTheApiAsGitLabSkipsItForThem() {
        gitlab.setPushRule(PROJECT, new GitLabPushRule("", "", "", "", "", true, false, false));
        gitlab.createBranch(PROJECT, "member", "main", author);

        commit("member", "Grant");

        assertThat(gitlab.pushRuleJson(PROJECT, author).orElseThrow()).containsEntry("member_check", true);
    }

    private void commit(String branch, String message) {
        gitlab.commit(PROJECT, branch, message, null, false, actions(branch), author);
    }

    private static List<Map<String, Object>> actions(String name) {
        return List.of(Map.of("action", "create", "file_path", "grants/" + name.replace('/', '-') + ".txt", "content", "bob\n"));
    }
}
