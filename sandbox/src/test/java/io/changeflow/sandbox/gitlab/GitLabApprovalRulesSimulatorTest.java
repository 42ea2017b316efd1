package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.GitLabApprovalRules.Rule;
import io.changeflow.sandbox.gitlab.GitLabBehaviourProperties.Profile;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The simulator's approval rules, approve answers by version profile, approvals reset after a push GitLab
 * processed late, the switchable check-items extension and the 429 rate limit, with a hand-moved clock.
 * Behaviour after GitLab's {@code doc/api/merge_request_approvals.md} and its rate-limit docs
 * ({@code doc/administration/settings/user_and_ip_rate_limits.md}).
 */
class GitLabApprovalRulesSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(2);

    @BeforeEach
    void start() {
        var properties = GitLabSimulatorProperties.defaults().withTimings(CHECKING, Duration.ofSeconds(10), Duration.ofSeconds(1));
        seed(properties, null);
    }

    @Test
    void anApprovalGivenAgainIs401OnGitLab17And304OnGitLab19() {
        var iid = open("changeflow/again");
        gitlab.approve(PROJECT, iid, null, null, bot1);
        assertThat(status(() -> gitlab.approve(PROJECT, iid, null, null, bot1))).isEqualTo(401);

        gitlab.apply(new GitLabBehaviourProperties("gitlab-19", null, null, null, null));
        assertThat(status(() -> gitlab.approve(PROJECT, iid, null, null, bot1))).isEqualTo(304);
        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void aMemberTheApprovalRulesDoNotMakeEligibleIsRefused401OnBothProfilesAsGitLabsApprovalServiceDoes() {
        gitlab.setEligibleApprovers(PROJECT, Set.of("approval-bot-1"));
        var iid = open("changeflow/eligible");

        assertThat(status(() -> gitlab.approve(PROJECT, iid, null, null, bot2))).isEqualTo(401);
        gitlab.apply(new GitLabBehaviourProperties("gitlab-19", null, null, null, null));
        assertThat(status(() -> gitlab.approve(PROJECT, iid, null, null, bot2))).isEqualTo(401);
        gitlab.approve(PROJECT, iid, null, null, bot1);
        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void anAccountWhoseRoleMayNotApproveIsRefused403AndAStaleShaIs409BeforeAnyApprovalCheck() {
        var iid = open("changeflow/role");
        gitlab.setRole(PROJECT, "approval-bot-2", 20);

        assertThat(status(() -> gitlab.approve(PROJECT, iid, null, null, bot2))).isEqualTo(403);
        gitlab.approve(PROJECT, iid, null, null, bot1);
        // check_sha_param! comes before not_modified! and the approval service (lib/api/merge_request_approvals.rb)
        assertThat(status(() -> gitlab.approve(PROJECT, iid, "0000000", null, bot1))).isEqualTo(409);
        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void enforcedApprovalsAreMetOnlyWithTheRequiredCountAndEveryRule() {
        gitlab.apply(new GitLabBehaviourProperties(null, true, null, null, null));
        gitlab.setApprovalRules(PROJECT, List.of(Rule.codeOwners("grants/", Set.of("security-lead"), 1)));
        var iid = open("changeflow/rules");

        gitlab.approve(PROJECT, iid, null, null, bot1);
        gitlab.approve(PROJECT, iid, null, null, bot2);

        assertThat(gitlab.approvalsMet(PROJECT, iid)).isFalse();
        var json = gitlab.approvalsJson(PROJECT, iid, author);
        assertThat(json).containsEntry("approved", false).containsEntry("approvals_left", 1)
                .containsEntry("has_approval_rules", true);
        assertThat(json.get("approval_rules_left").toString()).contains("code_owner").contains("grants/");

        gitlab.setApprovalRules(PROJECT, List.of());
        assertThat(gitlab.approvalsMet(PROJECT, iid)).isTrue();
        assertThat(gitlab.approvalsJson(PROJECT, iid, author)).containsEntry("approved", true).containsEntry("approvals_left", 0);
    }

    /**
     * One mechanism: under {@code approvals-enforced} the merge answers what {@link GitLabApprovalRules} judges
     * ({@code approvalsMet}), not only the approval count: 405 with {@code detailed_merge_status} {@code not_approved}
     * on both profiles while a rule is unmet, merged once it is met.
     */
    @Test
    void unmetApprovalRulesRefuseTheMergeWith405NotApprovedOnBothProfiles() {
        gitlab.setApprovalRules(PROJECT, List.of(Rule.regular("security", Set.of("approval-bot-2"), 1)));
        for (var profile : GitLabSimulatorProperties.Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            gitlab.apply(new GitLabBehaviourProperties(profile.settingName(), true, null, null, null));
            var iid = open("changeflow/enforced-" + profile.settingName());
            clock.advance(CHECKING.plusSeconds(1));
            gitlab.approve(PROJECT, iid, null, null, bot1);

            assertThat(gitlab.approvalsMet(PROJECT, iid)).as(profile + ": the rule unmet").isFalse();
            assertThat(gitlab.detailedMergeStatus(PROJECT, iid)).as(profile.toString()).isEqualTo("not_approved");
            assertThat(gitlab.getMergeRequest(PROJECT, iid, false, false)).as(profile.toString())
                    .containsEntry("detailed_merge_status", "not_approved");
            var sha = gitlab.mergeRequestSha(PROJECT, iid);
            assertThat(status(() -> gitlab.merge(PROJECT, iid, sha, author))).as(profile.toString()).isEqualTo(405);

            gitlab.approve(PROJECT, iid, null, null, bot2);
            assertThat(gitlab.approvalsMet(PROJECT, iid)).isTrue();
            assertThat(gitlab.merge(PROJECT, iid, sha, author)).as(profile.toString()).containsEntry("state", "merged");
            clock.advance(CHECKING.plusSeconds(1));
        }
    }

    /** A project's "require approvals" (the control API) is the same check as {@code approvals-enforced}, rules included. */
    @Test
    void requiringApprovalsOfOneProjectJudgesItsRulesToo() {
        gitlab.setApprovalRules(PROJECT, List.of(Rule.codeOwners("grants/", Set.of("maintainer"), 1)));
        gitlab.requireApprovals(PROJECT, true);
        var iid = open("changeflow/required");
        clock.advance(CHECKING.plusSeconds(1));
        gitlab.approve(PROJECT, iid, null, null, bot1);
        gitlab.approve(PROJECT, iid, null, null, bot2);

        assertThat(gitlab.approvalRules().enforced()).as("not enforced everywhere").isFalse();
        assertThat(gitlab.approvalsMet(PROJECT, iid)).isFalse();
        assertThat(gitlab.detailedMergeStatus(PROJECT, iid)).isEqualTo("not_approved");
        assertThat(status(() -> gitlab.merge(PROJECT, iid, null, author))).isEqualTo(405);

        gitlab.requireApprovals(PROJECT, false);
        assertThat(gitlab.approvalsMet(PROJECT, iid)).isTrue();
        assertThat(gitlab.merge(PROJECT, iid, null, author)).containsEntry("state", "merged");
    }

    @Test
    void approvalsAreInformationalUnlessEnforced() {
        var iid = open("changeflow/free");

        assertThat(gitlab.approvalsMet(PROJECT, iid)).isTrue();
        assertThat(gitlab.approvalsJson(PROJECT, iid, author)).containsEntry("approved", false).containsEntry("approvals_left", 2);
    }

    @Test
    void anApprovalGivenBeforeGitLabProcessedThePushIsRemovedOnceItHasAndOneGivenAfterStays() {
        gitlab.apply(new GitLabBehaviourProperties(null, null, true, null, null));
        gitlab.ensureProject("platform/reset", Map.of("a.txt", "a\n"));
        var iid = (Long) gitlab.createMergeRequest("platform/reset", pushBranch("platform/reset", "changeflow/r"), "main",
                "Change", "operations: r", author).get("iid");
        clock.advance(CHECKING.plusSeconds(1));
        gitlab.push("platform/reset", "changeflow/r", Map.of("a.txt", "b\n"), "A person pushes");

        gitlab.approve("platform/reset", iid, null, null, bot1);
        clock.advance(CHECKING.plusSeconds(1));
        assertThat(gitlab.approvedBy("platform/reset", iid)).isEmpty();

        gitlab.approve("platform/reset", iid, null, null, bot1);
        clock.advance(Duration.ofMinutes(1));
        assertThat(gitlab.approvedBy("platform/reset", iid)).containsExactly("approval-bot-1");
    }

    @Test
    void withoutTheCheckItemsExtensionTheApiIs404AndItemsInTheApprovalAreIgnored() {
        gitlab.setCheckItems(PROJECT, List.of("ticket-linked"), true);
        gitlab.apply(new GitLabBehaviourProperties(null, null, null, null, false));
        var iid = open("changeflow/stock");

        assertThat(status(() -> gitlab.checkItemsJson(PROJECT))).isEqualTo(404);
        gitlab.approve(PROJECT, iid, null, List.of("stale"), bot1);
        gitlab.approve(PROJECT, iid, null, null, bot2);
        assertThat(gitlab.approvedBy(PROJECT, iid)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void theRateLimitAnswers429WithRetryAfterAndRateLimitHeadersPerAccount() throws Exception {
        var limit = new GitLabRateLimit(clock, 2);
        var filter = new GitLabRateLimitFilter(limit);

        assertThat(call(filter, "author-bot-token").getStatus()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(20));
        assertThat(call(filter, "author-bot-token").getStatus()).isEqualTo(200);
        var refused = call(filter, "author-bot-token");
        assertThat(call(filter, "approval-bot-1-token").getStatus()).as("another account").isEqualTo(200);

        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).isEqualTo("40");
        assertThat(refused.getHeader("RateLimit-Limit")).isEqualTo("2");
        assertThat(refused.getHeader("RateLimit-Observed")).isEqualTo("2");
        assertThat(refused.getHeader("RateLimit-Remaining")).isEqualTo("0");
        assertThat(Long.parseLong(refused.getHeader("RateLimit-Reset"))).isGreaterThan(clock.instant().getEpochSecond());
        assertThat(refused.getHeader("RateLimit-ResetTime")).endsWith("GMT");
        assertThat(refused.getContentAsString()).isEqualTo("Retry later\n");
        assertThat(limit.refused()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(41));
        assertThat(call(filter, "author-bot-token").getStatus()).isEqualTo(200);
    }

    /** Over a shorter rate limit period the same rate allows proportionally fewer calls, and asks for a shorter wait. */
    @Test
    void overAShortRateLimitPeriodTheLimitIsProportionalAndRetryAfterShort() throws Exception {
        var limit = new GitLabRateLimit(clock, 120);
        limit.setPeriod(Duration.ofSeconds(6));
        var filter = new GitLabRateLimitFilter(limit);

        for (int i = 0; i < 12; i++) {
            assertThat(call(filter, "author-bot-token").getStatus()).as("call " + (i + 1)).isEqualTo(200);
        }
        var refused = call(filter, "author-bot-token");
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("RateLimit-Limit")).isEqualTo("12");
        assertThat(refused.getHeader("Retry-After")).isEqualTo("6");
        clock.advance(Duration.ofSeconds(6));
        assertThat(call(filter, "author-bot-token").getStatus()).isEqualTo(200);

        for (var bad : new String[] {null, "", "soon", "-5s", "0s"}) {
            limit.setPeriod(GitLabSimulatorConfiguration.rateLimitPeriod(bad));
            assertThat(limit.period()).as(String.valueOf(bad)).isEqualTo(Duration.ofMinutes(1));
        }
        limit.setPeriod(GitLabSimulatorConfiguration.rateLimitPeriod(" 10s "));
        assertThat(limit.period()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void badBehaviourSettingsFallBackToTheirDefaults() {
        var garbled = new GitLabBehaviourProperties("gitlab-nine", null, null, "many", null);
        assertThat(garbled.versionProfile()).isEqualTo(Profile.GITLAB_17);
        assertThat(garbled.rateLimit()).isZero();
        assertThat(garbled.checkItemsExtension()).isTrue();
        assertThat(garbled.approvalsEnforced()).isFalse();
        assertThat(garbled.resetApprovalsOnPush()).as("GitLab's default, db/structure.sql").isTrue();
        assertThat(new GitLabBehaviourProperties(" GitLab-19 ", null, null, "-5", null).versionProfile()).isEqualTo(Profile.GITLAB_19);
        assertThat(new GitLabBehaviourProperties(null, null, null, "-5", null).rateLimit()).isZero();
        assertThat(new GitLabBehaviourProperties(null, null, null, " 120 ", null).rateLimit()).isEqualTo(120);
    }

    private MockHttpServletResponse call(GitLabRateLimitFilter filter, String token) throws Exception {
        var request = new MockHttpServletRequest("GET", GitLabApiController.PREFIX + "/projects/1");
        request.addHeader("PRIVATE-TOKEN", token);
        var response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        if (response.getStatus() == 0) {
            response.setStatus(HttpServletResponse.SC_OK);
        }
        return response;
    }

    private String pushBranch(String project, String branch) {
        gitlab.createBranch(project, branch, "main", author);
        gitlab.commit(project, branch, "Change", null, false,
                List.of(Map.of("action", "update", "file_path", "a.txt", "content", "x\n")), author);
        return branch;
    }

    private long open(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        gitlab.commit(PROJECT, branch, "Change", null, false,
                List.of(Map.of("action", "update", "file_path", "grants/db.txt", "content", "alice\n" + branch + "\n")), author);
        return (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "operations: " + branch,
                author).get("iid");
    }

    private static int status(Runnable call) {
        try {
            call.run();
        } catch (GitLabError e) {
            return e.status();
        }
        throw new AssertionError("no error answer");
    }
}
