package io.changeflow.application.setup;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.application.port.out.ProjectSetup.BotRights;
import io.changeflow.application.port.out.ProjectSetup.BotRole;
import io.changeflow.application.port.out.ProjectSetup.ProjectSettings;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.setup.SetupFinding.Severity;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.Target;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The setup check: reads each catalog project's settings ({@link ProjectSetup}) and reports what will stop
 * Changeflow there (bots without the rights they need, merge trains, fast-forward merges, approvals reset on push,
 * pipelines that must succeed where a target's policy lets a merge go without one, approvals the bots cannot give:
 * re-authentication, approval rules that do not name them or need more approvals than they are; threads and status
 * checks that must pass; a push rule that refuses Changeflow's branches, commit messages or grant files:
 * {@link PushRuleFindings}) before a request fails on it.
 * See docs/external-systems-gitlab.md, "Setup check".
 */
public final class CheckGitLabSetup {

    private static final System.Logger LOG = System.getLogger(CheckGitLabSetup.class.getName());
    static final int DEVELOPER = 30;

    private final Targets targets;
    private final ProjectSetup setup;
    private final boolean webhooksOn;

    public CheckGitLabSetup(Targets targets, ProjectSetup setup) {
        this(targets, setup, false);
    }

    /** @param webhooksOn whether GitLab's webhooks wake the waits here: then each project's hook is checked too */
    public CheckGitLabSetup(Targets targets, ProjectSetup setup, boolean webhooksOn) {
        this.targets = targets;
        this.setup = setup;
        this.webhooksOn = webhooksOn;
    }

    /** The findings of every catalog project, in catalog order; a project GitLab could not answer for is a finding too. */
    public List<SetupFinding> check() {
        var findings = new ArrayList<SetupFinding>();
        for (var project : targets.all().stream().map(Target::project).distinct().toList()) {
            try {
                findings.addAll(findingsOf(setup.read(project)));
                if (webhooksOn) {
                    findings.addAll(HookFindings.of(project, setup.hooks(project)));
                }
            } catch (ExternalCallException e) {
                findings.add(new SetupFinding(project, "UNREADABLE", Severity.WARNS,
                        "GitLab did not answer for the project's settings (" + e.getMessage() + "), so nothing of it was checked",
                        "check that the project exists and the author bot can read it, then ask again (GET /ops/gitlab-check)"));
            }
        }
        return List.copyOf(findings);
    }

    /** {@link #check} at start: each finding logged once at WARN; never throws, whatever GitLab answers. */
    public void checkAtStart() {
        try {
            for (var finding : check()) {
                LOG.log(Level.WARNING, "GitLab setup of {0}: {1} ({2}): {3}; to do: {4}", finding.project(), finding.what(),
                        finding.severity(), finding.why(), finding.action());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "GitLab setup check at start failed; ask GET /ops/gitlab-check later", e);
        }
    }

    private List<SetupFinding> findingsOf(ProjectSettings settings) {
        var findings = new ArrayList<SetupFinding>();
        var project = settings.project();
        var branch = settings.targetBranch();
        for (var bot : settings.bots()) {
            botFinding(project, branch, bot).ifPresent(findings::add);
        }
        if (settings.mergeTrains() && !settings.mergeTrainsSkippable()) {
            findings.add(new SetupFinding(project, "MERGE_TRAINS", Severity.BLOCKS,
                    "merge trains on, skipping not allowed: Changeflow merges only by skipping the train"
                            + " (skip_merge_train), which this project does not allow, so its merge requests stop for a"
                            + " person before the merge (a plain merge would restart the train for everyone else)",
                    "turn on \"Merge immediately without restarting the train\" (Settings > Merge requests), or turn"
                            + " merge trains off for this project"));
        } else if (settings.mergeTrains()) {
            findings.add(new SetupFinding(project, "MERGE_TRAINS_SKIPPED", Severity.WARNS,
                    "merge trains on: Changeflow merges immediately, skipping the train (skip_merge_train); the train"
                            + " is not restarted, and Changeflow's merges are not tested together with the merge"
                            + " requests on it",
                    "nothing, if that is acceptable for grant files; otherwise keep Changeflow's targets in a project"
                            + " without merge trains"));
        }
        if (!"merge".equals(settings.mergeMethod())) {
            findings.add(new SetupFinding(project, "MERGE_METHOD_NEEDS_REBASE", Severity.WARNS,
                    "merge method '" + settings.mergeMethod() + "' merges only a source branch rebased on " + branch
                            + ": whenever " + branch + " moved, Changeflow rebases first, which is a push with a new"
                            + " pipeline to wait for (and approvals given again where they reset on push)",
                    "set the merge method to 'Merge commit', or accept the slower merges"));
        }
        if (settings.resetApprovalsOnPush().orElse(false)) {
            findings.add(new SetupFinding(project, "APPROVALS_RESET_ON_PUSH", Severity.WARNS,
                    "approvals are removed when commits are added: every rebase or regeneration drops the bots'"
                            + " approvals, and Changeflow has to approve again before it merges",
                    "nothing to do if that is intended; otherwise turn off 'Remove all approvals when commits are added'"));
        }
        findings.addAll(gateFindings(project, branch, settings));
        var ofProject = targets.all().stream().filter(t -> t.project().equals(project)).toList();
        // a fast-forward merge writes no merge commit for the push rule to judge
        settings.gates().pushRule().ifPresent(rule -> findings.addAll(
                PushRuleFindings.of(project, branch, !"ff".equals(settings.mergeMethod()), ofProject, rule)));
        var lenient = ofProject.stream()
                .filter(t -> t.pipeline() != PipelinePolicy.REQUIRED).map(t -> t.key().value()).toList();
        if (settings.pipelineMustSucceed() && !lenient.isEmpty()) {
            findings.add(new SetupFinding(project, "PIPELINE_MUST_SUCCEED", Severity.WARNS,
                    "'Pipelines must succeed' is on, but the pipeline policy of " + lenient + " lets a merge go on a"
                            + " manual or skipped pipeline: GitLab refuses those merges",
                    "set those targets' pipeline policy to 'required', or turn 'Pipelines must succeed' off"));
        }
        return findings;
    }

    /** What the project asks before a merge that the bots cannot give (issue 35). */
    private static List<SetupFinding> gateFindings(String project, String branch, ProjectSettings settings) {
        var findings = new ArrayList<SetupFinding>();
        var gates = settings.gates();
        var approvers = settings.bots().stream().filter(bot -> bot.role() == BotRole.APPROVER).map(BotRights::account).toList();
        if (gates.reauthenticationToApprove().orElse(false)) {
            findings.add(new SetupFinding(project, "APPROVAL_NEEDS_REAUTHENTICATION", Severity.BLOCKS,
                    "approving requires re-authentication (a password or SAML): a bot's API approval is refused (401)",
                    "turn off 'Require user re-authentication to approve' for this project (Settings > Merge requests)"));
        }
        gates.approvalRules().ifPresent(rules -> {
            for (var approver : approvers) {
                var eligible = rules.isEmpty() || rules.stream().anyMatch(rule -> rule.eligible().isEmpty()
                        || rule.eligible().contains(approver));
                if (!eligible) {
                    findings.add(new SetupFinding(project, "APPROVER_NOT_ELIGIBLE", Severity.BLOCKS,
                            "the approval bot '" + approver + "' is an eligible approver of none of the project's approval"
                                    + " rules: GitLab refuses its approval (401)",
                            "add '" + approver + "' to the approval rules' approvers, or use a bot that is one"));
                }
            }
            for (var rule : rules) {
                var bots = rule.eligible().isEmpty() ? approvers.size()
                        : (int) approvers.stream().filter(rule.eligible()::contains).count();
                if (rule.approvalsRequired() > bots) {
                    findings.add(new SetupFinding(project, "APPROVALS_BEYOND_THE_BOTS", Severity.BLOCKS,
                            "the approval rule '" + rule.name() + "' needs " + rule.approvalsRequired() + " approvals and "
                                    + bots + " of the approval bots may give one: every merge waits for a person's approval",
                            "lower the rule's required approvals to the bots', make more bots its approvers, or have a"
                                    + " person approve each merge request (then re-trigger it)"));
                }
            }
        });
        gates.approvalSettings().ifPresent(approval -> {
            // ApprovalState#eligible_for_approval_by? (ee/app/models/approval_state.rb): the author bot commits every change
            var author = settings.bots().stream().filter(bot -> bot.role() == BotRole.AUTHOR).map(BotRights::account).findFirst();
            author.filter(approvers::contains).ifPresent(same -> {
                if (!approval.authorApproval() || approval.disableCommittersApproval()) {
                    findings.add(new SetupFinding(project, "APPROVER_IS_THE_AUTHOR", Severity.BLOCKS,
                            "the approval bot '" + same + "' is also the author bot, which opens and commits every merge"
                                    + " request, and the project lets neither the author nor a committer approve: GitLab"
                                    + " refuses its approval (401)",
                            "use an approval bot that is not the author bot, or allow the author's and committers'"
                                    + " approvals (Settings > Merge requests > Approval settings)"));
                }
            });
            if (approval.selectiveCodeOwnerRemovals() && !settings.resetApprovalsOnPush().orElse(false)) {
                findings.add(new SetupFinding(project, "CODE_OWNER_APPROVALS_RESET_ON_PUSH", Severity.WARNS,
                        "approvals by code owners are removed when their files change: every rebase or regeneration of a"
                                + " grant file drops the code owners' approvals, and Changeflow has to approve again before"
                                + " it merges (a person, where the bots are not the code owners)",
                        "nothing to do if that is intended; otherwise turn off 'Remove approvals by Code Owners if their"
                                + " files changed'"));
            }
        });
        if (gates.discussionsMustBeResolved()) {
            findings.add(new SetupFinding(project, "DISCUSSIONS_MUST_BE_RESOLVED", Severity.WARNS,
                    "'All threads must be resolved' is on: a merge request with an unresolved thread stops for a person",
                    "nothing to do if that is intended: resolve the threads, then re-trigger the request"));
        }
        if (gates.statusChecksMustPass()) {
            findings.add(new SetupFinding(project, "STATUS_CHECKS_MUST_PASS", Severity.WARNS,
                    "'Status checks must succeed' is on: each merge request into " + branch + " waits for the external"
                            + " status checks, and one that did not pass stops for a person",
                    "make sure the external services answer for Changeflow's merge requests"));
        }
        return findings;
    }

    private static Optional<SetupFinding> botFinding(String project, String branch, BotRights bot) {
        var name = (bot.role() == BotRole.AUTHOR ? "the author bot '" : "the approval bot '") + bot.account() + "'";
        if (bot.accessLevel() < DEVELOPER) {
            return Optional.of(new SetupFinding(project, bot.role() + "_ROLE_TOO_LOW", Severity.BLOCKS,
                    name + (bot.accessLevel() == 0 ? " is not a member of the project" : " has access level " + bot.accessLevel())
                            + (bot.role() == BotRole.AUTHOR ? ": it cannot create branches and merge requests"
                            : ": it cannot approve merge requests"),
                    "give " + name + " at least Developer in the project" + (bot.role() == BotRole.AUTHOR
                            ? " (Maintainer where " + branch + " is protected for Maintainers)" : "")));
        }
        if (bot.role() == BotRole.AUTHOR && !bot.mayMergeIntoTarget()) {
            return Optional.of(new SetupFinding(project, "AUTHOR_MAY_NOT_MERGE", Severity.BLOCKS,
                    name + " may not merge into the protected branch " + branch + ": GitLab refuses every merge (401)",
                    "give " + name + " Maintainer or allow it on the protected branch " + branch + " (Allowed to merge)"));
        }
        return Optional.empty();
    }
}
