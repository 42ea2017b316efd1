package io.changeflow.application.port.out;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A GitLab project's settings as Changeflow's bots see them, read for the setup check: the target branch, who may
 * merge into it, the merge method, merge trains, approvals and pipeline settings. Reads only, nothing is changed.
 */
public interface ProjectSetup {

    /** What a bot is to Changeflow. */
    enum BotRole {
        /** Creates branches, commits, merge requests, and merges. */
        AUTHOR,
        /** Approves merge requests. */
        APPROVER
    }

    /**
     * A bot's rights in the project.
     *
     * @param accessLevel        its role as GitLab's access level (30 Developer, 40 Maintainer, ...); 0 when not a member
     * @param mayMergeIntoTarget whether the target branch's protection lets it merge (true when it is not protected)
     */
    record BotRights(String account, BotRole role, int accessLevel, boolean mayMergeIntoTarget) {}

    /**
     * A project approval rule as GitLab lists it ({@code GET /projects/:id/approval_rules}).
     *
     * @param eligible the usernames of its eligible approvers; empty for a rule any member may satisfy ({@code any_approver})
     */
    record ApprovalRule(String name, int approvalsRequired, Set<String> eligible) {
        public ApprovalRule {
            eligible = Set.copyOf(eligible);
        }
    }

    /**
     * The project's push rule ({@code GET /projects/:id/push_rule}, Premium): what GitLab checks of every commit pushed,
     * the bots' commits and GitLab's merge commits included. A regular expression is empty when the rule has none.
     *
     * @param commitMessageRegex         every commit message must contain a match (multiline mode)
     * @param commitMessageNegativeRegex no commit message may contain a match (multiline mode)
     * @param branchNameRegex            every new branch name must contain a match
     * @param authorEmailRegex           the author's and committer's email must contain a match
     * @param fileNameRegex              no new file's path may contain a match
     * @param preventSecrets             files named like secrets ({@code *.pem}, {@code *.key}, {@code id_rsa}, ...) refused
     * @param rejectNonDcoCommits        every commit message must carry a {@code Signed-off-by:} trailer
     */
    record PushRule(String commitMessageRegex, String commitMessageNegativeRegex, String branchNameRegex,
                    String authorEmailRegex, String fileNameRegex, boolean preventSecrets, boolean rejectNonDcoCommits) {

        public PushRule {
            commitMessageRegex = commitMessageRegex == null ? "" : commitMessageRegex;
            commitMessageNegativeRegex = commitMessageNegativeRegex == null ? "" : commitMessageNegativeRegex;
            branchNameRegex = branchNameRegex == null ? "" : branchNameRegex;
            authorEmailRegex = authorEmailRegex == null ? "" : authorEmailRegex;
            fileNameRegex = fileNameRegex == null ? "" : fileNameRegex;
        }
    }

    /**
     * Who may approve and which approvals a push removes ({@code GET /projects/:id/approvals}; all false by default).
     *
     * @param authorApproval             {@code merge_requests_author_approval}: the author may approve its own merge request
     * @param disableCommittersApproval  {@code merge_requests_disable_committers_approval}: an account that committed to
     *                                   the merge request may not approve it
     * @param selectiveCodeOwnerRemovals {@code selective_code_owner_removals}: a push removes the approvals of the code
     *                                   owners of the files it changed
     */
    record ApprovalSettings(boolean authorApproval, boolean disableCommittersApproval, boolean selectiveCodeOwnerRemovals) {}

    /**
     * What the project asks before a merge beyond pipelines and rights: where the bots cannot give it, a person must.
     *
     * @param discussionsMustBeResolved {@code only_allow_merge_if_all_discussions_are_resolved}
     * @param statusChecksMustPass      {@code only_allow_merge_if_all_status_checks_passed} (Ultimate)
     * @param reauthenticationToApprove {@code require_reauthentication_to_approve} (or the older
     *                                  {@code require_password_to_approve}); empty when the bots may not read it
     * @param approvalRules             the project's approval rules; empty when the bots may not read them
     * @param pushRule                  the project's push rule; empty when it has none or the bots may not read it
     * @param approvalSettings          who may approve and what a push removes; empty when the bots may not read it
     */
    record MergeGates(boolean discussionsMustBeResolved, boolean statusChecksMustPass,
                      Optional<Boolean> reauthenticationToApprove, Optional<List<ApprovalRule>> approvalRules,
                      Optional<PushRule> pushRule, Optional<ApprovalSettings> approvalSettings) {

        public MergeGates {
            approvalRules = approvalRules.map(List::copyOf);
            Objects.requireNonNull(pushRule, "pushRule");
            Objects.requireNonNull(approvalSettings, "approvalSettings");
        }

        /** Gates whose push rule and approval settings were not read. */
        public MergeGates(boolean discussionsMustBeResolved, boolean statusChecksMustPass,
                          Optional<Boolean> reauthenticationToApprove, Optional<List<ApprovalRule>> approvalRules) {
            this(discussionsMustBeResolved, statusChecksMustPass, reauthenticationToApprove, approvalRules, Optional.empty(),
                    Optional.empty());
        }

        /** Nothing asked that the read could tell: none of these settings on, the approval settings unread. */
        public static MergeGates unknown() {
            return new MergeGates(false, false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /**
     * @param targetBranch         the branch merge requests go to (the project's default branch)
     * @param mergeMethod          GitLab's {@code merge_method}: {@code merge}, {@code rebase_merge} or {@code ff}
     * @param mergeTrains          {@code merge_trains_enabled}
     * @param pipelineMustSucceed  {@code only_allow_merge_if_pipeline_succeeds}
     * @param resetApprovalsOnPush {@code reset_approvals_on_push}; empty when the bots may not read the approval settings
     * @param bots                 the author bot first, then the approval bots
     * @param gates                what else the project asks before a merge
     * @param mergeTrainsSkippable {@code merge_trains_skip_train_allowed} ("Merge immediately without restarting the
     *                             train"): where merge trains are on, Changeflow merges only with {@code skip_merge_train}
     */
    record ProjectSettings(String project, String targetBranch, String mergeMethod, boolean mergeTrains,
                           boolean pipelineMustSucceed, Optional<Boolean> resetApprovalsOnPush, List<BotRights> bots,
                           MergeGates gates, boolean mergeTrainsSkippable) {

        public ProjectSettings {
            bots = List.copyOf(bots);
            Objects.requireNonNull(gates, "gates");
        }

        /** Settings of a project whose merge trains (if on) may not be skipped. */
        public ProjectSettings(String project, String targetBranch, String mergeMethod, boolean mergeTrains,
                               boolean pipelineMustSucceed, Optional<Boolean> resetApprovalsOnPush, List<BotRights> bots,
                               MergeGates gates) {
            this(project, targetBranch, mergeMethod, mergeTrains, pipelineMustSucceed, resetApprovalsOnPush, bots, gates,
                    false);
        }

        /** Settings whose {@link MergeGates} were not read. */
        public ProjectSettings(String project, String targetBranch, String mergeMethod, boolean mergeTrains,
                               boolean pipelineMustSucceed, Optional<Boolean> resetApprovalsOnPush, List<BotRights> bots) {
            this(project, targetBranch, mergeMethod, mergeTrains, pipelineMustSucceed, resetApprovalsOnPush, bots,
                    MergeGates.unknown());
        }
    }

    /**
     * A project webhook as GitLab lists it ({@code GET /projects/:id/hooks}, doc/api/project_webhooks.md).
     *
     * @param alertStatus GitLab's {@code alert_status}: {@code executable}, {@code temporarily_disabled} or
     *                    {@code disabled} (a hook whose deliveries kept failing)
     */
    record ProjectHook(String url, boolean pipelineEvents, boolean mergeRequestsEvents, String alertStatus) {}

    /**
     * The project's webhooks (issue 33 item 3), read with the author bot.
     *
     * @return empty when the bot may not list them (GitLab: Maintainers only, 403) or this port cannot tell (the default)
     * @throws ExternalCallException when GitLab cannot be read
     */
    default Optional<List<ProjectHook>> hooks(String project) {
        return Optional.empty();
    }

    /**
     * Reads {@code project}'s settings.
     *
     * @throws ExternalCallException when GitLab cannot be read, or does not know the project (404)
     */
    ProjectSettings read(String project);
}
