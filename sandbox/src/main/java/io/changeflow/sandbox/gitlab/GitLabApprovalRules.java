package io.changeflow.sandbox.gitlab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GitLab Premium's approval rules as the simulator keeps them, per project: {@code approvals_required} of
 * the project, plus rules (a regular rule with eligible approvers, or a code-owner rule), each needing its
 * own number of approvals from its eligible approvers. A merge request is approved when the project's count
 * is reached and every rule is satisfied; while {@link #enforced} it cannot be merged before
 * ({@code detailed_merge_status} {@code not_approved}, merging answers 405). Where a project names its
 * eligible approvers, an approval by any other account is refused with 401 (GitLab: the approval service refuses,
 * lib/api/merge_request_approvals.rb); approvals by accounts a rule does not name still count for the project's {@code approvals_required}.
 *
 * <p>Shapes from GitLab's {@code doc/api/merge_request_approvals.md} (the merge request's approvals and
 * approval state: {@code approved}, {@code approvals_left}, {@code approval_rules_left}, rule types
 * {@code regular} and {@code code_owner}).
 */
public final class GitLabApprovalRules {

    /**
     * One rule: {@code approvalsRequired} approvals from {@code eligible} accounts.
     *
     * @param ruleType {@code regular} or {@code code_owner}
     * @param eligible usernames that count for the rule (empty: anyone but the author)
     */
    public record Rule(String name, String ruleType, Set<String> eligible, int approvalsRequired) {
        public Rule {
            eligible = Set.copyOf(eligible);
            approvalsRequired = Math.max(0, approvalsRequired);
        }

        public static Rule regular(String name, Set<String> eligible, int approvalsRequired) {
            return new Rule(name, "regular", eligible, approvalsRequired);
        }

        public static Rule codeOwners(String pattern, Set<String> owners, int approvalsRequired) {
            return new Rule(pattern, "code_owner", owners, approvalsRequired);
        }

        boolean counts(String username) {
            return eligible.isEmpty() || eligible.contains(username);
        }

        int left(List<String> approvers) {
            return Math.max(0, approvalsRequired - (int) approvers.stream().filter(this::counts).count());
        }
    }

    /** GitLab's judgement of a merge request's approvals. */
    public record Judgement(boolean approved, int approvalsLeft, List<Rule> rulesLeft) {}

    private volatile boolean enforced;
    private final Set<Long> enforcedProjects = ConcurrentHashMap.newKeySet();
    private final Map<Long, List<Rule>> rulesByProject = new ConcurrentHashMap<>();
    private final Map<Long, Set<String>> eligibleByProject = new ConcurrentHashMap<>();

    GitLabApprovalRules(boolean enforced) {
        this.enforced = enforced;
    }

    /** Whether unmet rules block merging (GitLab Premium); otherwise approvals are informational (GitLab Free). */
    public boolean enforced() {
        return enforced;
    }

    public void enforce(boolean enforce) {
        this.enforced = enforce;
    }

    /**
     * Makes unmet approvals block merging in one project even while they are not {@linkplain #enforced() enforced}
     * everywhere (the control API's "require approvals" of a project); false: as everywhere.
     */
    void enforce(long projectId, boolean enforce) {
        if (enforce) {
            enforcedProjects.add(projectId);
        } else {
            enforcedProjects.remove(projectId);
        }
    }

    /** Whether unmet approvals block merging in {@code projectId}: enforced everywhere, or for that project. */
    boolean enforcedFor(long projectId) {
        return enforced || enforcedProjects.contains(projectId);
    }

    void setRules(long projectId, List<Rule> rules) {
        rulesByProject.put(projectId, List.copyOf(rules));
    }

    List<Rule> rules(long projectId) {
        return rulesByProject.getOrDefault(projectId, List.of());
    }

    /** @param eligible the accounts that may approve at all; empty: every account but the author */
    void setEligible(long projectId, Set<String> eligible) {
        eligibleByProject.put(projectId, Set.copyOf(eligible));
    }

    /** The accounts the project names as its eligible approvers; empty: none named. */
    Set<String> eligibleNamed(long projectId) {
        return eligibleByProject.getOrDefault(projectId, Set.of());
    }

    void reset() {
        enforcedProjects.clear();
        rulesByProject.clear();
        eligibleByProject.clear();
    }

    /** Whether {@code username} may approve in {@code projectId}: every account, unless the project names them. */
    boolean eligible(long projectId, String username) {
        var named = eligibleByProject.getOrDefault(projectId, Set.of());
        return named.isEmpty() || named.contains(username);
    }

    /** @param approvers who approved, in order; {@code approvalsRequired} the project's count */
    Judgement judge(long projectId, List<String> approvers, int approvalsRequired) {
        var left = new ArrayList<Rule>();
        var rulesLeftCount = 0;
        for (var rule : rules(projectId)) {
            var ruleLeft = rule.left(approvers);
            if (ruleLeft > 0) {
                left.add(rule);
                rulesLeftCount += ruleLeft;
            }
        }
        var countLeft = Math.max(0, approvalsRequired - approvers.size());
        var approvalsLeft = Math.max(countLeft, rulesLeftCount);
        return new Judgement(approvalsLeft == 0, approvalsLeft, List.copyOf(left));
    }

    /** Overwrites the approval fields of an approvals answer with this judgement (GitLab's field names). */
    void annotate(Map<String, Object> json, long projectId, Judgement judgement) {
        json.put("approved", judgement.approved());
        json.put("approvals_left", judgement.approvalsLeft());
        var rules = rules(projectId);
        json.put("has_approval_rules", !rules.isEmpty());
        var left = new ArrayList<Map<String, Object>>();
        for (var rule : judgement.rulesLeft()) {
            var entry = new LinkedHashMap<String, Object>();
            entry.put("id", (long) rules.indexOf(rule) + 1);
            entry.put("name", rule.name());
            entry.put("rule_type", rule.ruleType());
            left.add(entry);
        }
        json.put("approval_rules_left", left);
    }
}
