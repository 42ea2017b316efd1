package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.gitlab.GitLabSimulator.Project;
import io.changeflow.sandbox.gitlab.GitLabSimulator.User;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What the simulated GitLab answers about a project's setup: its protected branches with who may merge, its
 * members' roles and its approval settings, in GitLab's shapes (each method names the file it follows).
 */
final class GitLabSetupAnswers {

    static final int MAINTAINER = 40;
    /** The lowest role that may approve a merge request at all (app/policies/merge_request_policy.rb, 17.x to 19.2). */
    static final int DEVELOPER = 30;

    private GitLabSetupAnswers() {}

    /** The account's access level in the project; every account is a Maintainer until set otherwise. */
    static int role(Project project, String account) {
        return project.roles.getOrDefault(account, MAINTAINER);
    }

    /**
     * Whether {@code account} may merge into {@code branch}: anyone on an unprotected branch; on a protected one the
     * accounts of its "Allowed to merge" list, or without a list the Maintainers (GitLab's default rule,
     * {@code merge_access_level} default 40 in lib/api/protected_branches.rb, 17.x to 19.1).
     */
    static boolean mayMerge(Project project, String branch, String account) {
        if (!project.protectedBranches.contains(branch)) {
            return true;
        }
        var mergers = project.allowedToMerge.get(branch);
        return mergers == null ? role(project, account) >= MAINTAINER : mergers.contains(account);
    }

    /**
     * {@code GET /projects/:id/protected_branches/:name}: 404 when the branch is not protected
     * (lib/api/protected_branches.rb); the shape of lib/api/entities/protected_branch.rb and
     * protected_ref_access.rb (17.x to 19.1). Nobody pushes to a protected branch here ("No one", 0); merging is
     * for the "Allowed to merge" accounts (user entries: {@code user_id} set, EE) or the Maintainers.
     */
    static Optional<Map<String, Object>> protectedBranch(Project project, String branch,
                                                         Function<String, Optional<User>> users) {
        if (!project.protectedBranches.contains(branch)) {
            return Optional.empty();
        }
        var merge = new ArrayList<Map<String, Object>>();
        var mergers = project.allowedToMerge.get(branch);
        if (mergers == null) {
            merge.add(access(MAINTAINER, "Maintainers", null));
        } else {
            mergers.stream().sorted().forEach(account -> users.apply(account)
                    .ifPresent(user -> merge.add(access(MAINTAINER, user.name(), user.id()))));
        }
        var json = new LinkedHashMap<String, Object>();
        json.put("id", (long) branch.hashCode() & 0xffffL);
        json.put("name", branch);
        json.put("push_access_levels", List.of(access(0, "No one", null)));
        json.put("merge_access_levels", merge);
        json.put("allow_force_push", false);
        json.put("code_owner_approval_required", false);
        return Optional.of(json);
    }

    private static Map<String, Object> access(int level, String description, Long userId) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", (long) (description.hashCode() & 0xffff));
        json.put("access_level", level);
        json.put("access_level_description", description);
        json.put("user_id", userId);
        json.put("group_id", null);
        return json;
    }

    /**
     * {@code GET /projects/:id/members/all/:user_id}: the member with their {@code access_level}
     * (lib/api/entities/member.rb, 17.x to 19.1); 404 when the account is not a member (level 0).
     */
    static Optional<Map<String, Object>> member(Project project, User user, String webUrl) {
        var level = role(project, user.username());
        if (level <= 0) {
            return Optional.empty();
        }
        var json = new LinkedHashMap<>(GitLabJson.user(user, webUrl));
        json.put("access_level", level);
        json.put("expires_at", null);
        return Optional.of(json);
    }

    /**
     * {@code GET /projects/:id/approvals}: the project's approval settings (doc/api/merge_request_approvals.md, "Get
     * Configuration"); ee/lib/api/project_approvals.rb (17.x to 19.1) answers only with {@code authorize!
     * :update_approvers}, so a caller below Maintainer gets 403.
     */
    static Map<String, Object> approvalSettings(Project project, User caller) {
        if (role(project, caller.username()) < MAINTAINER) {
            throw GitLabError.of(403, "403 Forbidden");
        }
        var json = new LinkedHashMap<String, Object>();
        json.put("approvers", List.of());
        json.put("approver_groups", List.of());
        json.put("approvals_before_merge", 0);
        json.put("reset_approvals_on_push", project.resetApprovalsOnPush);
        json.put("selective_code_owner_removals", project.selectiveCodeOwnerRemovals);
        json.put("disable_overriding_approvers_per_merge_request", false);
        json.put("merge_requests_author_approval", project.mergeRequestsAuthorApproval);
        json.put("merge_requests_disable_committers_approval", project.mergeRequestsDisableCommittersApproval);
        // require_password_to_approve was deprecated in 16.9 for require_reauthentication_to_approve; both are answered
        json.put("require_password_to_approve", project.requireReauthenticationToApprove);
        json.put("require_reauthentication_to_approve", project.requireReauthenticationToApprove);
        return json;
    }

    /**
     * {@code GET /projects/:id/approval_rules}: the project's approval rules (ee/lib/api/project_approval_rules.rb, shape
     * of ee/lib/ee/api/entities/project_approval_rule.rb, doc/api/merge_request_approvals.md "Get project-level rules";
     * 17.x to 19.2): each regular rule with its {@code eligible_approvers} and {@code approvals_required}. A project whose
     * eligible approvers are set without rules ({@link GitLabSimulator#setEligibleApprovers}) answers them as one regular
     * rule needing one approval; code-owner rules are the merge request's, not listed here.
     */
    static List<Map<String, Object>> approvalRules(Project project, List<GitLabApprovalRules.Rule> rules,
                                                   Set<String> eligible, Function<String, Optional<User>> users,
                                                   String webUrl) {
        var listed = new ArrayList<GitLabApprovalRules.Rule>();
        rules.stream().filter(rule -> rule.ruleType().equals("regular")).forEach(listed::add);
        if (listed.isEmpty() && !eligible.isEmpty()) {
            listed.add(GitLabApprovalRules.Rule.regular("Eligible approvers", eligible, 1));
        }
        var answer = new ArrayList<Map<String, Object>>();
        for (var rule : listed) {
            var approvers = rule.eligible().stream().sorted().map(users).flatMap(Optional::stream)
                    .map(user -> GitLabJson.user(user, webUrl)).toList();
            var json = new LinkedHashMap<String, Object>();
            json.put("id", (long) answer.size() + 1);
            json.put("name", rule.name());
            json.put("rule_type", rule.eligible().isEmpty() ? "any_approver" : "regular");
            json.put("eligible_approvers", approvers);
            json.put("approvals_required", rule.approvalsRequired());
            json.put("users", approvers);
            json.put("groups", List.of());
            json.put("contains_hidden_groups", false);
            json.put("protected_branches", List.of());
            json.put("applies_to_all_protected_branches", false);
            answer.add(json);
        }
        return answer;
    }
}
