package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.settings.Settings;
import io.changeflow.sandbox.gitlab.GitLabApprovalRules.Rule;
import io.changeflow.sandbox.gitlab.GitLabBehaviourProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The approval funnel against the simulator: both implementations, chosen by {@code approver.mode} on
 * every call, the check items from the upstream configuration API and the 422 self-heal. And approvals as
 * GitLab (Premium) judges them, against the simulator's approval rules and version profiles: "approved" is
 * GitLab's {@code approvals_left}, not our bots' approvals; already approved is success on 19.x (304) and 401
 * on 17/18.x; a member that is not an eligible approver gets 401, a role below Developer 403; the approval names the
 * head it approves; a GitLab without the check-items extension gets the client library's approval.
 */
class GitLabApprovalTest extends AgainstSimulator {

    @AfterEach
    void defaultBehaviour() {
        server.gitlab().apply(GitLabBehaviourProperties.defaults());
    }

    @BeforeEach
    void newProject() {
        server.faults().clear();
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, null);
        project = server.newProject("platform/approvals", Map.of("grants/db.txt", "alice\n"));
    }

    @Test
    void approvesWithTheCheckItemsOfTheConfigurationApiInDirectHttpMode() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked", "owner-informed"), true);
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "direct-http");
        var iid = openMergeRequest("changeflow/direct");

        gitlab.approve(project, iid, "approval-bot-1");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void rebuildsTheRequestFromThe422BodyWhenTheCachedCheckItemsAreStale() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), true);
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        var first = openMergeRequest("changeflow/cache-warm");
        gitlab.approve(project, first, "approval-bot-1");

        server.gitlab().setCheckItems(project, List.of("ticket-linked", "security-reviewed"), true);
        var second = openMergeRequest("changeflow/cache-stale");
        gitlab.approve(project, second, "approval-bot-1");
        gitlab.approve(project, second, "approval-bot-2");

        assertThat(gitlab.approvedBy(project, second)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void switchesBetweenClientLibraryAndDirectHttpAtRuntimeWithoutRestart() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), true);
        var iid = openMergeRequest("changeflow/switch");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                    assertThat(e.status()).isEqualTo(422);
                });

        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        gitlab.approve(project, iid, "approval-bot-1");

        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "nonsense");
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), false);
        gitlab.approve(project, iid, "approval-bot-2");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void keepsTheRealUnauthorizedStatusInBothModes() {
        var iid = openMergeRequest("changeflow/twice");
        gitlab.approve(project, iid, "approval-bot-1");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(401));
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.isTransient()).isFalse();
                });
        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void isApprovedOnlyOnceGitLabsRequiredCountIsReached() {
        server.gitlab().apply(behaviour("gitlab-17", true, true));
        var iid = openMergeRequest("changeflow/count");

        gitlab.approve(project, iid, "approval-bot-1");
        var half = gitlab.approvalState(project, iid);
        assertThat(half.approvedBy()).containsExactly("approval-bot-1");
        assertThat(half.approved()).isFalse();
        assertThat(half.approvalsLeft()).isEqualTo(1);
        assertThat(server.gitlab().approvalsMet(project, iid)).isFalse();

        gitlab.approve(project, iid, "approval-bot-2");
        var full = gitlab.approvalState(project, iid);
        assertThat(full.approved()).isTrue();
        assertThat(full.approvalsLeft()).isZero();
        assertThat(server.gitlab().approvalsMet(project, iid)).isTrue();
    }

    @Test
    void staysUnapprovedWhileACodeOwnerRuleIsUnmetThoughEveryBotApproved() {
        server.gitlab().apply(behaviour("gitlab-17", true, true));
        server.gitlab().setApprovalRules(project, List.of(Rule.codeOwners("grants/", Set.of("security-lead"), 1)));
        var iid = openMergeRequest("changeflow/owners");

        gitlab.approve(project, iid, "approval-bot-1");
        gitlab.approve(project, iid, "approval-bot-2");

        var state = gitlab.approvalState(project, iid);
        assertThat(state.approvedBy()).containsExactlyInAnyOrder("approval-bot-1", "approval-bot-2");
        assertThat(state.approved()).isFalse();
        assertThat(state.approvalsLeft()).isEqualTo(1);
        assertThat(gitlab.approvedBy(project, iid)).containsExactlyInAnyOrder("approval-bot-1", "approval-bot-2");
        assertThat(server.gitlab().approvalsMet(project, iid)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLIENT_LIBRARY", "DIRECT_HTTP"})
    void anApprovalGivenAlreadyIsSuccessOnGitLab19(String mode) {
        server.gitlab().apply(behaviour("gitlab-19", false, true));
        var iid = openWithApproverMode(mode, "changeflow/again");
        gitlab.approve(project, iid, "approval-bot-1");

        gitlab.approve(project, iid, "approval-bot-1");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLIENT_LIBRARY", "DIRECT_HTTP"})
    void aMemberThatIsNotAnEligibleApproverGets401AndALowRole403NeitherTransient(String mode) {
        server.gitlab().setEligibleApprovers(project, Set.of("approval-bot-1"));
        var iid = openWithApproverMode(mode, "changeflow/eligible");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-2"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).as("the approval service refuses (issue 35)").isEqualTo(401);
                    assertThat(e.isTransient()).isFalse();
                });
        server.gitlab().setEligibleApprovers(project, Set.of());
        server.gitlab().setRole(project, "approval-bot-2", 20);
        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-2"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).as("a Reporter may not approve").isEqualTo(403);
                    assertThat(e.isTransient()).isFalse();
                });
        gitlab.approve(project, iid, "approval-bot-1");
        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLIENT_LIBRARY", "DIRECT_HTTP"})
    void approvesTheHeadItNamesAndIsRefusedWhenTheHeadMoved(String mode) {
        var iid = openWithApproverMode(mode, "changeflow/sha");
        var head = gitlab.get(project, iid).sha();

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1", "0000000000000000000000000000000000000000"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(409));
        gitlab.approve(project, iid, "approval-bot-1", head);

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void fallsBackToTheClientLibraryWhereGitLabHasNoCheckItemsExtension() {
        server.gitlab().apply(behaviour("gitlab-17", false, false));
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        var iid = openMergeRequest("changeflow/stock");

        gitlab.approve(project, iid, "approval-bot-1");
        gitlab.approve(project, iid, "approval-bot-2");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1", "approval-bot-2");
        assertThat(gitlab.approvalState(project, iid).approved()).isTrue();
    }

    @Test
    void anApprovalGivenBeforeGitLabProcessedThePushIsRemovedOnceItHas() throws Exception {
        // GitLab processes the push for 3 s here (long enough to approve meanwhile, even on a busy machine)
        server.gitlab().setTimings(Duration.ofSeconds(3), Duration.ofMillis(600), Duration.ofMillis(200));
        try {
            server.gitlab().resetApprovalsOnPush(project, true);
            var iid = openMergeRequest("changeflow/reset");
            server.gitlab().push(project, "changeflow/reset", Map.of("grants/db.txt", "alice\nbob\n"), "A person pushes");

            gitlab.approve(project, iid, "approval-bot-1"); // accepted: GitLab has not processed the push yet

            waitUntilChecked(iid);
            assertThat(gitlab.approvedBy(project, iid)).isEmpty();
            gitlab.approve(project, iid, "approval-bot-1");
            assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
        } finally {
            server.gitlab().setTimings(Duration.ofMillis(300), Duration.ofMillis(600), Duration.ofMillis(200));
        }
    }

    private void waitUntilChecked(long iid) throws InterruptedException {
        var deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (server.gitlab().detailedMergeStatus(project, iid).equals("checking") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private static GitLabBehaviourProperties behaviour(String profile, boolean enforced, boolean checkItems) {
        return new GitLabBehaviourProperties(profile, enforced, false, null, checkItems);
    }

    @Test
    void refusesAnAccountThatIsNotAConfiguredApprovalBot() {
        var iid = openMergeRequest("changeflow/unknown");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "somebody-else"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("somebody-else");
    }

    /** Sets the approver mode to {@code mode} and opens a merge request from {@code branch} plus the mode. */
    private long openWithApproverMode(String mode, String branch) {
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, mode);
        return openMergeRequest(branch + "-" + mode.toLowerCase());
    }

    private long openMergeRequest(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Grant", List.of(new FileChange("grants/db.txt", "alice\n" + branch + "\n")));
        return gitlab.open(project, branch, "main", "Grant " + branch, "operations: " + branch).iid();
    }
}
