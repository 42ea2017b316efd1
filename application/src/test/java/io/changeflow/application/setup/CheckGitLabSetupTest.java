package io.changeflow.application.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.changeflow.application.fake.FakeProjectSetup;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.ProjectSetup.ApprovalRule;
import io.changeflow.application.port.out.ProjectSetup.ApprovalSettings;
import io.changeflow.application.port.out.ProjectSetup.BotRights;
import io.changeflow.application.port.out.ProjectSetup.BotRole;
import io.changeflow.application.port.out.ProjectSetup.MergeGates;
import io.changeflow.application.port.out.ProjectSetup.ProjectSettings;
import io.changeflow.application.port.out.ProjectSetup.PushRule;
import io.changeflow.application.setup.SetupFinding.Severity;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CheckGitLabSetupTest {

    private final FakeTargets targets = FakeTargets.standard();
    private final FakeProjectSetup setup = new FakeProjectSetup();
    private final CheckGitLabSetup check = new CheckGitLabSetup(targets, setup);

    @Test
    void aProjectSetUpAsChangeflowNeedsHasNoFinding() {
        assertThat(check.check()).isEmpty();
    }

    @Test
    void anAuthorBotThatMayNotMergeIntoTheTargetBranchBlocksWithWhatToDo() {
        setup.set(withBots(new BotRights("changeflow-bot", BotRole.AUTHOR, 30, false)));

        assertThat(check.check()).singleElement().satisfies(finding -> {
            assertThat(finding.project()).isEqualTo(FakeTargets.PROJECT);
            assertThat(finding.what()).isEqualTo("AUTHOR_MAY_NOT_MERGE");
            assertThat(finding.severity()).isEqualTo(Severity.BLOCKS);
            assertThat(finding.why()).contains("changeflow-bot", "may not merge into the protected branch main");
            assertThat(finding.action()).contains("Maintainer or allow it on the protected branch main");
        });
    }

    @Test
    void botsBelowDeveloperBlockWhetherAuthorOrApprover() {
        setup.set(withBots(new BotRights("changeflow-bot", BotRole.AUTHOR, 0, true),
                new BotRights("approval-bot", BotRole.APPROVER, 20, false)));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("AUTHOR_ROLE_TOO_LOW", Severity.BLOCKS),
                tuple("APPROVER_ROLE_TOO_LOW", Severity.BLOCKS));
        assertThat(check.check().getFirst().why()).contains("is not a member");
    }

    @Test
    void mergeTrainsBlockAndFastForwardResetApprovalsAndAStrictPipelineSettingWarn() {
        targets.withPipeline(FakeTargets.BATCHABLE, PipelinePolicy.MANUAL_COUNTS);
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        setup.set(new ProjectSettings(clean.project(), "main", "ff", true, true, Optional.of(true), clean.bots()));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("MERGE_TRAINS", Severity.BLOCKS),
                tuple("MERGE_METHOD_NEEDS_REBASE", Severity.WARNS),
                tuple("APPROVALS_RESET_ON_PUSH", Severity.WARNS),
                tuple("PIPELINE_MUST_SUCCEED", Severity.WARNS));
    }

    @Test
    void mergeTrainsThatMayBeSkippedOnlyWarnWhileOnesThatMayNotBlockSayingWhatToAllow() {
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        setup.set(new ProjectSettings(clean.project(), "main", "merge", true, false, Optional.of(false), clean.bots(),
                MergeGates.unknown(), true));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity)
                .containsExactly(tuple("MERGE_TRAINS_SKIPPED", Severity.WARNS));

        setup.set(new ProjectSettings(clean.project(), "main", "merge", true, false, Optional.of(false), clean.bots(),
                MergeGates.unknown(), false));
        var blocking = check.check();
        assertThat(blocking).extracting(SetupFinding::what, SetupFinding::severity)
                .containsExactly(tuple("MERGE_TRAINS", Severity.BLOCKS));
        assertThat(blocking.getFirst().why()).startsWith("merge trains on, skipping not allowed");
        assertThat(blocking.getFirst().action()).contains("Merge immediately without restarting the train");
    }

    @Test
    void eachProjectIsReadOnceAndOneGitLabCannotAnswerForIsAFindingNotAFailure() {
        targets.add(new Target(TargetKey.of("gone"), "Gone", "A project GitLab does not know", "missing/project",
                "grants/gone.txt", false, null));
        targets.add(new Target(TargetKey.of("other"), "Other", "Another project", "team/other", "grants/other.txt", false, null));
        setup.set(new ProjectSettings("team/other", "main", "merge", true, false, Optional.empty(),
                FakeProjectSetup.clean("team/other").bots()));

        assertThat(check.check()).extracting(SetupFinding::project, SetupFinding::what).containsExactlyInAnyOrder(
                tuple("missing/project", "UNREADABLE"),
                tuple("team/other", "MERGE_TRAINS"));
    }

    @Test
    void reauthenticationToApproveAnApproverNoRuleNamesAndARuleBeyondTheBotsBlockWhileThreadsAndStatusChecksWarn() {
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        var rules = List.of(new ApprovalRule("Security", 2, Set.of("security-lead", "security-deputy")));
        setup.set(new ProjectSettings(clean.project(), "main", "merge", false, false, Optional.of(false), clean.bots(),
                new MergeGates(true, true, Optional.of(true), Optional.of(rules))));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("APPROVAL_NEEDS_REAUTHENTICATION", Severity.BLOCKS),
                tuple("APPROVER_NOT_ELIGIBLE", Severity.BLOCKS),
                tuple("APPROVALS_BEYOND_THE_BOTS", Severity.BLOCKS),
                tuple("DISCUSSIONS_MUST_BE_RESOLVED", Severity.WARNS),
                tuple("STATUS_CHECKS_MUST_PASS", Severity.WARNS));
        assertThat(check.check().get(1).why()).contains("approval-bot");
        assertThat(check.check().get(2).why()).contains("'Security' needs 2 approvals and 0 of the approval bots");
    }

    @Test
    void anAnyApproverRuleTheBotsCanFillAndApprovalSettingsTheBotsMayNotReadAreNoFinding() {
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        setup.set(new ProjectSettings(clean.project(), "main", "merge", false, false, Optional.empty(), clean.bots(),
                new MergeGates(false, false, Optional.empty(), Optional.of(List.of(new ApprovalRule("Any", 1, Set.of()))))));
        assertThat(check.check()).isEmpty();

        setup.set(new ProjectSettings(clean.project(), "main", "merge", false, false, Optional.empty(), clean.bots(),
                new MergeGates(false, false, Optional.empty(), Optional.of(List.of(new ApprovalRule("Any", 2, Set.of()))))));
        assertThat(check.check()).extracting(SetupFinding::what).containsExactly("APPROVALS_BEYOND_THE_BOTS");
    }

    @Test
    void aPushRuleThatAcceptsChangeflowsBranchesMessagesAndFilesIsNoFinding() {
        setup.set(withPushRule("merge", new PushRule("Changeflow-Operation: |^Merge branch", "fixup!", "^(main|changeflow/)",
                "", "\\.exe$", true, false)));

        assertThat(check.check()).isEmpty();
    }

    @Test
    void aPushRuleRefusingChangeflowsBranchesOrMessagesBlocksNamingWhatItRefuses() {
        setup.set(withPushRule("merge", new PushRule("JIRA-\\d+", "", "^feature/", "", "", false, false)));

        var findings = check.check();

        assertThat(findings).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("PUSH_RULE_BRANCH_NAME", Severity.BLOCKS),
                tuple("PUSH_RULE_COMMIT_MESSAGE", Severity.BLOCKS));
        assertThat(findings.get(0).why()).contains("changeflow/00000000-0000-4000-8000-000000000000", "changeflow/batch-1");
        assertThat(findings.get(0).action()).contains("^changeflow/");
        assertThat(findings.get(1).why()).contains("JIRA-\\d+", "Grant ", "merge commits (422)");
    }

    @Test
    void aMessageRuleThatOnlyTheMergeCommitFailsBlocksUnlessTheProjectFastForwards() {
        var onlyOurs = new PushRule("^Changeflow-Operation: ", "", "", "", "", false, false);
        setup.set(withPushRule("merge", onlyOurs));
        assertThat(check.check()).extracting(SetupFinding::what).containsExactly("PUSH_RULE_COMMIT_MESSAGE");
        assertThat(check.check().getFirst().why()).contains("Merge branch 'changeflow/");

        setup.set(withPushRule("ff", onlyOurs));
        assertThat(check.check()).extracting(SetupFinding::what).containsExactly("MERGE_METHOD_NEEDS_REBASE");
    }

    @Test
    void dcoANegativeMessageRuleSecretLikeAndProhibitedGrantFilesAndAnAuthorEmailRuleAreEachReported() {
        targets.add(new Target(TargetKey.of("tls"), "TLS", "Keys", FakeTargets.PROJECT, "grants/tls.pem", false, null));
        setup.set(withPushRule("merge", new PushRule("", "^Grant ", "", "@example\\.com$", "^grants/db-prod", true, true)));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("PUSH_RULE_COMMIT_MESSAGE", Severity.BLOCKS),
                tuple("PUSH_RULE_DCO", Severity.BLOCKS),
                tuple("PUSH_RULE_FILE_NAME", Severity.WARNS),
                tuple("PUSH_RULE_FILE_NAME", Severity.WARNS),
                tuple("PUSH_RULE_AUTHOR_EMAIL", Severity.WARNS));
        assertThat(check.check().get(2).why()).contains("grants/tls.pem", "secret");
        assertThat(check.check().get(3).why()).contains("grants/" + FakeTargets.SINGLE.value() + ".txt");
    }

    @Test
    void aRuleInSyntaxJavaCannotReadIsReportedAsNotJudgedNeverAsPassing() {
        setup.set(withPushRule("merge", new PushRule("", "", "[[:^punct:", "", "", false, false)));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity)
                .containsExactly(tuple("PUSH_RULE_NOT_JUDGED", Severity.WARNS));
    }

    @Test
    void anApprovalBotThatIsTheAuthorBotBlocksUnlessAuthorsMayApproveAndCodeOwnerRemovalsWarn() {
        var bots = List.of(new BotRights("changeflow-bot", BotRole.AUTHOR, 40, true),
                new BotRights("changeflow-bot", BotRole.APPROVER, 40, true));
        setup.set(withApprovalSettings(bots, new ApprovalSettings(false, false, true)));

        assertThat(check.check()).extracting(SetupFinding::what, SetupFinding::severity).containsExactly(
                tuple("APPROVER_IS_THE_AUTHOR", Severity.BLOCKS),
                tuple("CODE_OWNER_APPROVALS_RESET_ON_PUSH", Severity.WARNS));
        assertThat(check.check().getFirst().action()).contains("not the author bot");

        setup.set(withApprovalSettings(bots, new ApprovalSettings(true, true, false)));
        assertThat(check.check()).as("the author may approve, but it commits and committers may not")
                .extracting(SetupFinding::what).containsExactly("APPROVER_IS_THE_AUTHOR");

        setup.set(withApprovalSettings(bots, new ApprovalSettings(true, false, false)));
        assertThat(check.check()).isEmpty();
        setup.set(withApprovalSettings(FakeProjectSetup.clean(FakeTargets.PROJECT).bots(), new ApprovalSettings(false, true, false)));
        assertThat(check.check()).as("separate bots: the approval bots commit nothing").isEmpty();
    }

    private static ProjectSettings withApprovalSettings(List<BotRights> bots, ApprovalSettings approval) {
        return new ProjectSettings(FakeTargets.PROJECT, "main", "merge", false, false, Optional.of(false), bots,
                new MergeGates(false, false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(approval)));
    }

    private static ProjectSettings withPushRule(String mergeMethod, PushRule rule) {
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        return new ProjectSettings(clean.project(), "main", mergeMethod, false, false, Optional.of(false), clean.bots(),
                new MergeGates(false, false, Optional.empty(), Optional.empty(), Optional.of(rule), Optional.empty()));
    }

    private static ProjectSettings withBots(BotRights... bots) {
        var clean = FakeProjectSetup.clean(FakeTargets.PROJECT);
        return new ProjectSettings(clean.project(), clean.targetBranch(), clean.mergeMethod(), false, false,
                Optional.of(false), List.of(bots));
    }
}
