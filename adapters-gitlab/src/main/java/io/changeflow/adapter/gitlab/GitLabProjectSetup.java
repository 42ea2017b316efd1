package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.application.port.out.ProjectSetup.ApprovalRule;
import io.changeflow.application.port.out.ProjectSetup.ApprovalSettings;
import io.changeflow.application.port.out.ProjectSetup.MergeGates;
import io.changeflow.application.port.out.ProjectSetup.ProjectHook;
import io.changeflow.application.port.out.ProjectSetup.PushRule;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * {@link ProjectSetup} on GitLab's REST v4, read with plain HTTP (gitlab4j maps neither {@code merge_trains_enabled}
 * nor the users of {@code merge_access_levels}): the project ({@code GET /projects/:id}), its approval settings
 * ({@code GET /projects/:id/approvals}, Maintainers only: empty when refused), the default branch's protection
 * ({@code GET /projects/:id/protected_branches/:name}, 404: not protected), its approval rules
 * ({@code GET /projects/:id/approval_rules}: empty when refused), its push rule ({@code GET /projects/:id/push_rule}:
 * empty when refused, absent or none) and each bot's role
 * ({@code GET /user} with its token, then {@code GET /projects/:id/members/all/:user_id}, 404: not a member).
 */
final class GitLabProjectSetup implements ProjectSetup {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** GitLab's access level "No access" (doc/api/protected_branches.md). */
    private static final int NO_ACCESS = 0;

    private final GitLabProperties properties;
    private final GitLabCalls calls;
    private final GitLabHttp http;

    GitLabProjectSetup(GitLabProperties properties, GitLabCalls calls, GitLabHttp http) {
        this.properties = properties;
        this.calls = calls;
        this.http = http;
    }

    @Override
    public ProjectSettings read(String project) {
        var path = GitLabHttp.projectPath(project);
        var author = properties.author();
        var json = required(path, author.token());
        var branch = json.path("default_branch").asText("main");
        var protection = optional(path + "/protected_branches/" + URLEncoder.encode(branch, StandardCharsets.UTF_8), author.token());
        var approvalSettings = optional(path + "/approvals", author.token());
        var resetApprovals = approvalSettings.map(approvals -> approvals.path("reset_approvals_on_push").asBoolean(false));
        var bots = new ArrayList<BotRights>();
        bots.add(rights(path, author, BotRole.AUTHOR, protection));
        var seen = new HashSet<String>();
        for (var approver : properties.approvers()) {
            if (seen.add(approver.account())) {
                bots.add(rights(path, approver, BotRole.APPROVER, protection));
            }
        }
        // Issue 35: what else the project asks before a merge (lib/api/entities/project.rb, ee/lib/api/project_approvals.rb,
        // ee/lib/api/project_approval_rules.rb; 17.x to 19.2). require_password_to_approve is the pre-16.9 name.
        var reauthentication = approvalSettings.map(approvals -> approvals.path("require_reauthentication_to_approve").asBoolean(false)
                || approvals.path("require_password_to_approve").asBoolean(false));
        var rules = optional(path + "/approval_rules", author.token()).map(GitLabProjectSetup::approvalRules);
        // ee/lib/api/project_push_rule.rb (17.x to 19.1): Maintainers only (403: empty), 404 without Premium (empty),
        // 200 with the body null where the project has none (empty)
        var pushRule = optional(path + "/push_rule", author.token()).filter(rule -> rule.isObject())
                .map(GitLabProjectSetup::pushRule);
        // ee/lib/api/project_approvals.rb (EE::API::Entities::ApprovalSettings, 17.x to 19.1)
        var whoApproves = approvalSettings.map(approvals -> new ApprovalSettings(
                approvals.path("merge_requests_author_approval").asBoolean(false),
                approvals.path("merge_requests_disable_committers_approval").asBoolean(false),
                approvals.path("selective_code_owner_removals").asBoolean(false)));
        var gates = new MergeGates(json.path("only_allow_merge_if_all_discussions_are_resolved").asBoolean(false),
                json.path("only_allow_merge_if_all_status_checks_passed").asBoolean(false), reauthentication, rules,
                pushRule, whoApproves);
        return new ProjectSettings(project, branch, json.path("merge_method").asText("merge"),
                json.path("merge_trains_enabled").asBoolean(false),
                json.path("only_allow_merge_if_pipeline_succeeds").asBoolean(false), resetApprovals, bots, gates,
                // ee/lib/ee/api/entities/project.rb (16.5+): "Merge immediately without restarting the train"
                json.path("merge_trains_skip_train_allowed").asBoolean(false));
    }

    /**
     * {@code GET /projects/:id/hooks} (lib/api/project_hooks.rb: {@code authorize! :admin_project}, Maintainers only, 403
     * otherwise: empty; lib/api/entities/project_hook.rb: {@code url}, {@code pipeline_events},
     * {@code merge_requests_events}, {@code alert_status}; the token is never listed). First page of 100.
     */
    @Override
    public Optional<List<ProjectHook>> hooks(String project) {
        return optional(GitLabHttp.projectPath(project) + "/hooks?per_page=100", properties.author().token())
                .filter(JsonNode::isArray).map(answer -> {
                    var hooks = new ArrayList<ProjectHook>();
                    answer.forEach(hook -> hooks.add(new ProjectHook(hook.path("url").asText(""),
                            hook.path("pipeline_events").asBoolean(false), hook.path("merge_requests_events").asBoolean(false),
                            hook.path("alert_status").asText("executable"))));
                    return List.copyOf(hooks);
                });
    }

    /**
     * The rules of {@code GET /projects/:id/approval_rules} with their eligible approvers' usernames (an
     * {@code any_approver} rule, or one naming nobody: empty, any member); report rules (e.g. coverage) are not the bots'.
     */
    static List<ApprovalRule> approvalRules(JsonNode answer) {
        var rules = new ArrayList<ApprovalRule>();
        for (var rule : answer) {
            var type = rule.path("rule_type").asText("regular");
            if (type.equals("report_approver")) {
                continue;
            }
            var eligible = new HashSet<String>();
            if (!type.equals("any_approver")) {
                rule.path("eligible_approvers").forEach(user -> eligible.add(user.path("username").asText()));
            }
            rules.add(new ApprovalRule(rule.path("name").asText(""), rule.path("approvals_required").asInt(0), eligible));
        }
        return rules;
    }

    /** The attributes of {@code GET /projects/:id/push_rule} that can refuse Changeflow's commits (doc/api/project_push_rules.md). */
    static PushRule pushRule(JsonNode rule) {
        return new PushRule(rule.path("commit_message_regex").asText(""), rule.path("commit_message_negative_regex").asText(""),
                rule.path("branch_name_regex").asText(""), rule.path("author_email_regex").asText(""),
                rule.path("file_name_regex").asText(""), rule.path("prevent_secrets").asBoolean(false),
                rule.path("reject_non_dco_commits").asBoolean(false));
    }

    private BotRights rights(String projectPath, GitLabProperties.Bot bot, BotRole role, Optional<JsonNode> protection) {
        var userId = required("/user", bot.token()).path("id").asLong();
        var level = optional(projectPath + "/members/all/" + userId, bot.token())
                .map(member -> member.path("access_level").asInt(NO_ACCESS)).orElse(NO_ACCESS);
        return new BotRights(bot.account(), role, level, protection.map(rule -> mayMerge(rule, userId, level)).orElse(true));
    }

    /**
     * Whether the protected branch's {@code merge_access_levels} admit the bot: an entry naming it ({@code user_id}),
     * or a role entry (no user, no group) at or below its access level and not "No one" (lib/api/entities/
     * protected_ref_access.rb, 17.x to 19.1). Group entries are not resolved: they do not admit the bot here.
     */
    static boolean mayMerge(JsonNode protection, long userId, int level) {
        for (var access : protection.path("merge_access_levels")) {
            var user = access.path("user_id");
            var group = access.path("group_id");
            if (!user.isMissingNode() && !user.isNull()) {
                if (user.asLong() == userId) {
                    return true;
                }
            } else if (group.isMissingNode() || group.isNull()) {
                var required = access.path("access_level").asInt(NO_ACCESS);
                if (required > NO_ACCESS && level >= required) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The JSON of {@code path}; any failure thrown as the port's. */
    private JsonNode required(String path, String token) {
        return calls.read("projectSetup", () -> JSON.readTree(body(http.get(path, token))));
    }

    /** The JSON of {@code path}; empty on 403 and 404 (refused or absent), any other failure thrown as the port's. */
    private Optional<JsonNode> optional(String path, String token) {
        return calls.read("projectSetup", () -> {
            var response = http.get(path, token);
            if (response.statusCode() == 404 || response.statusCode() == 403) {
                return Optional.<JsonNode>empty();
            }
            return Optional.of(JSON.readTree(body(response)));
        });
    }

    private static String body(HttpResponse<String> response) throws Exception {
        if (!GitLabHttp.isSuccess(response)) {
            throw GitLabHttp.failure(response);
        }
        return response.body();
    }
}
