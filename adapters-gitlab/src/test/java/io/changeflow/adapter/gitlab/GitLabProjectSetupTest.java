package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ProjectSetup.ApprovalSettings;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.application.port.out.ProjectSetup.BotRights;
import io.changeflow.application.port.out.ProjectSetup.BotRole;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.setup.CheckGitLabSetup;
import io.changeflow.application.setup.SetupFinding;
import io.changeflow.application.setup.SetupFinding.Severity;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.sandbox.gitlab.GitLabProjectDefaults.MergeMethod;
import io.changeflow.sandbox.gitlab.GitLabPushRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The setup check's reads against the GitLab simulator: what the bots may do, and the project settings that stop Changeflow. */
class GitLabProjectSetupTest extends AgainstSimulator {

    private final List<Target> catalog = new CopyOnWriteArrayList<>();
    private final Targets targets = new Targets() {
        @Override
        public List<Target> all() {
            return List.copyOf(catalog);
        }

        @Override
        public Optional<Target> find(TargetKey key) {
            return catalog.stream().filter(t -> t.key().equals(key)).findFirst();
        }
    };

    @BeforeEach
    void aProjectInTheCatalog() {
        project = server.newProject("setup", Map.of("grants/a.txt", ""));
        catalog.add(new Target(TargetKey.of("a"), "A", "A target", project, "grants/a.txt", false, null));
    }

    @Test
    void aProjectAsGitLabCreatesItReadsAsBotsWithMergeRightsAndNoFinding() {
        var settings = adapter.projectSetup().read(project);

        assertThat(settings.targetBranch()).isEqualTo("main");
        assertThat(settings.mergeMethod()).isEqualTo("merge");
        assertThat(settings.mergeTrains()).isFalse();
        assertThat(settings.bots()).extracting(BotRights::account, BotRights::role, BotRights::accessLevel).containsExactly(
                tuple("changeflow-bot", BotRole.AUTHOR, 40), tuple("approval-bot-1", BotRole.APPROVER, 40),
                tuple("approval-bot-2", BotRole.APPROVER, 40));
        assertThat(settings.bots().getFirst().mayMergeIntoTarget()).isTrue();
        server.gitlab().resetApprovalsOnPush(project, false);
        assertThat(check().check()).isEmpty();
    }

    @Test
    void anAuthorBotLeftOutOfAllowedToMergeIsReportedAsBlockingWithWhatToDo() {
        server.gitlab().allowedToMerge(project, "main", Set.of("approval-bot-1"));
        server.gitlab().resetApprovalsOnPush(project, false);

        assertThat(check().check()).singleElement().satisfies(finding -> {
            assertThat(finding.what()).isEqualTo("AUTHOR_MAY_NOT_MERGE");
            assertThat(finding.severity()).isEqualTo(Severity.BLOCKS);
            assertThat(finding.action()).contains("give the author bot 'changeflow-bot' Maintainer or allow it on the protected branch main");
        });
        server.gitlab().allowedToMerge(project, "main", Set.of("changeflow-bot"));
        assertThat(check().check()).isEmpty();
    }

    @Test
    void anAuthorBotThatIsADeveloperMayNotMergeUnderGitLabsDefaultProtectionForMaintainers() {
        server.gitlab().setRole(project, "changeflow-bot", 30);
        server.gitlab().setRole(project, "approval-bot-2", 0);

        var settings = adapter.projectSetup().read(project);

        assertThat(settings.bots()).extracting(BotRights::account, BotRights::accessLevel, BotRights::mayMergeIntoTarget)
                .containsExactly(tuple("changeflow-bot", 30, false), tuple("approval-bot-1", 40, true),
                        tuple("approval-bot-2", 0, false));
        // a Developer may not read the approval settings (Maintainers only): the reset setting is unknown, not reported
        assertThat(settings.resetApprovalsOnPush()).isEmpty();
        assertThat(check().check()).extracting(SetupFinding::what)
                .containsExactly("AUTHOR_MAY_NOT_MERGE", "APPROVER_ROLE_TOO_LOW");
    }

    @Test
    void mergeTrainsFastForwardAndApprovalsResetOnPushAreReported() {
        server.gitlab().setMergeTrains(project, true);
        server.gitlab().resetApprovalsOnPush(project, true);
        server.gitlab().setMergeMethod(project, MergeMethod.FF);

        assertThat(check().check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("MERGE_TRAINS", Severity.BLOCKS), tuple("MERGE_METHOD_NEEDS_REBASE", Severity.WARNS),
                tuple("APPROVALS_RESET_ON_PUSH", Severity.WARNS));
    }

    @Test
    void mergeTrainsThatMayBeSkippedAreReadAndOnlyWarn() {
        server.gitlab().setMergeTrains(project, true);
        server.gitlab().setMergeTrainsSkipTrainAllowed(project, true);
        server.gitlab().resetApprovalsOnPush(project, false);

        assertThat(adapter.projectSetup().read(project).mergeTrainsSkippable()).isTrue();
        assertThat(check().check()).extracting(SetupFinding::what, SetupFinding::severity)
                .containsExactly(tuple("MERGE_TRAINS_SKIPPED", Severity.WARNS));
    }

    // Issue 35: the gates the bots cannot pass, read from the project, its approval settings and its approval rules.
    @Test
    void reauthenticationARuleWithoutTheBotsThreadsAndStatusChecksAreReadAndReported() {
        server.gitlab().resetApprovalsOnPush(project, false);
        server.gitlab().requireReauthenticationToApprove(project, true);
        server.gitlab().setApprovalRules(project, List.of(
                io.changeflow.sandbox.gitlab.GitLabApprovalRules.Rule.regular("Security", Set.of("approval-bot-1"), 2)));
        server.gitlab().requireResolvedDiscussions(project, true);
        server.gitlab().requireStatusChecks(project, true);

        var gates = adapter.projectSetup().read(project).gates();

        assertThat(gates.reauthenticationToApprove()).contains(true);
        assertThat(gates.approvalRules().orElseThrow()).singleElement().satisfies(rule -> {
            assertThat(rule.approvalsRequired()).isEqualTo(2);
            assertThat(rule.eligible()).containsExactly("approval-bot-1");
        });
        assertThat(check().check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("APPROVAL_NEEDS_REAUTHENTICATION", Severity.BLOCKS),
                tuple("APPROVER_NOT_ELIGIBLE", Severity.BLOCKS),
                tuple("APPROVALS_BEYOND_THE_BOTS", Severity.BLOCKS),
                tuple("DISCUSSIONS_MUST_BE_RESOLVED", Severity.WARNS),
                tuple("STATUS_CHECKS_MUST_PASS", Severity.WARNS));
        assertThat(check().check().get(1).why()).contains("approval-bot-2");
    }

    @Test
    void aPushRuleIsReadAndOneRefusingChangeflowsBranchesAndMergeCommitsBlocksWhileNoneOrAnUnreadableOneIsNoFinding() {
        server.gitlab().resetApprovalsOnPush(project, false);
        assertThat(adapter.projectSetup().read(project).gates().pushRule()).as("GitLab answers null: no push rule").isEmpty();

        server.gitlab().setPushRule(project, new GitLabPushRule("^Changeflow-Operation: ", "", "^(feature|fix)/", "", "",
                true, true, false));
        var rule = adapter.projectSetup().read(project).gates().pushRule().orElseThrow();

        assertThat(rule.commitMessageRegex()).isEqualTo("^Changeflow-Operation: ");
        assertThat(rule.branchNameRegex()).isEqualTo("^(feature|fix)/");
        assertThat(rule.preventSecrets()).isTrue();
        assertThat(rule.rejectNonDcoCommits()).isFalse();
        assertThat(check().check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("PUSH_RULE_BRANCH_NAME", Severity.BLOCKS), tuple("PUSH_RULE_COMMIT_MESSAGE", Severity.BLOCKS));
        assertThat(check().check().get(1).why()).contains("Merge branch 'changeflow/");

        // the push rule API is for Maintainers: a Developer author bot reads none (and may not merge: that is reported)
        server.gitlab().setRole(project, "changeflow-bot", 30);
        assertThat(adapter.projectSetup().read(project).gates().pushRule()).isEmpty();
    }

    @Test
    void theProjectsHooksAreReadForMaintainersAndTheCheckReportsAMissingOneOrOneItCannotRead() {
        server.gitlab().resetApprovalsOnPush(project, false);
        var webhooksOn = new CheckGitLabSetup(targets, adapter.projectSetup(), true);
        assertThat(adapter.projectSetup().hooks(project)).contains(List.of());
        assertThat(webhooksOn.check()).extracting(SetupFinding::what).containsExactly("HOOK_MISSING");

        server.gitlab().addHook(project, "https://changeflow.example/callbacks/gitlab", "s3cret");

        assertThat(adapter.projectSetup().hooks(project)).hasValueSatisfying(hooks -> assertThat(hooks).singleElement()
                .isEqualTo(new ProjectSetup.ProjectHook("https://changeflow.example/callbacks/gitlab", true, true,
                        "executable")));
        assertThat(webhooksOn.check()).isEmpty();
        // GitLab lists hooks to Maintainers only (lib/api/project_hooks.rb): a Developer author bot reads none
        server.gitlab().setRole(project, "changeflow-bot", 30);
        assertThat(adapter.projectSetup().hooks(project)).isEmpty();
        assertThat(webhooksOn.check()).extracting(SetupFinding::what).contains("HOOK_UNREADABLE");
    }

    @Test
    void theApprovalSettingsAreReadAndCodeOwnerRemovalsReported() {
        server.gitlab().resetApprovalsOnPush(project, false);
        assertThat(adapter.projectSetup().read(project).gates().approvalSettings())
                .as("GitLab's defaults").contains(new ApprovalSettings(false, false, false));

        server.gitlab().setApprovalSettings(project, true, true, true);

        assertThat(adapter.projectSetup().read(project).gates().approvalSettings()).contains(new ApprovalSettings(true, true, true));
        assertThat(check().check()).extracting(SetupFinding::what).containsExactly("CODE_OWNER_APPROVALS_RESET_ON_PUSH");
    }

    @Test
    void aProjectGitLabDoesNotKnowIsTheClientsFailureAndAFindingOfTheCheck() {
        assertThatThrownBy(() -> adapter.projectSetup().read("nobody/nothing"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(404));
        catalog.add(new Target(TargetKey.of("b"), "B", "Gone", "nobody/nothing", "grants/b.txt", false, null));
        assertThat(check().check()).extracting(SetupFinding::project, SetupFinding::what).contains(tuple("nobody/nothing", "UNREADABLE"));
    }

    private CheckGitLabSetup check() {
        return new CheckGitLabSetup(targets, adapter.projectSetup());
    }
}
