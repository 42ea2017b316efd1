package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.gitlab.GitLabSimulator.Branch;
import io.changeflow.sandbox.gitlab.GitLabSimulator.Commit;
import io.changeflow.sandbox.gitlab.GitLabSimulator.MergeRequest;
import io.changeflow.sandbox.gitlab.GitLabSimulator.MergeRequestView;
import io.changeflow.sandbox.gitlab.GitLabSimulator.Pipeline;
import io.changeflow.sandbox.gitlab.GitLabSimulator.PipelineTimes;
import io.changeflow.sandbox.gitlab.GitLabSimulator.Project;
import io.changeflow.sandbox.gitlab.GitLabSimulator.User;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GitLab REST v4 response shapes, with GitLab's own field names (snake_case, nulls written out), for the
 * resources the simulator serves. Field order follows GitLab's documented examples.
 */
final class GitLabJson {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private GitLabJson() {
    }

    static String time(Instant instant) {
        return instant == null ? null : TIME.format(instant);
    }

    static Map<String, Object> user(User user, String webUrl) {
        if (user == null) {
            return null;
        }
        var json = new LinkedHashMap<String, Object>();
        json.put("id", user.id());
        json.put("username", user.username());
        json.put("name", user.name());
        json.put("state", "active");
        json.put("locked", false);
        json.put("avatar_url", null);
        json.put("web_url", webUrl + "/" + user.username());
        return json;
    }

    static Map<String, Object> project(Project project, String webUrl) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", project.id);
        json.put("description", null);
        json.put("name", project.name());
        json.put("name_with_namespace", project.path.replace("/", " / "));
        json.put("path", project.name());
        json.put("path_with_namespace", project.path);
        json.put("created_at", time(project.createdAt));
        json.put("default_branch", project.defaultBranch);
        json.put("tag_list", List.of());
        json.put("topics", List.of());
        json.put("ssh_url_to_repo", "git@sandbox.invalid:" + project.path + ".git");
        json.put("http_url_to_repo", webUrl + "/" + project.path + ".git");
        json.put("web_url", webUrl + "/" + project.path);
        json.put("readme_url", webUrl + "/" + project.path + "/-/blob/" + project.defaultBranch + "/README.md");
        json.put("avatar_url", null);
        json.put("forks_count", 0);
        json.put("star_count", 0);
        json.put("last_activity_at", time(project.createdAt));
        var namespace = new LinkedHashMap<String, Object>();
        namespace.put("id", project.id);
        namespace.put("name", project.namespace());
        namespace.put("path", project.namespace());
        namespace.put("kind", "group");
        namespace.put("full_path", project.namespace());
        namespace.put("parent_id", null);
        namespace.put("avatar_url", null);
        namespace.put("web_url", webUrl + "/groups/" + project.namespace());
        json.put("namespace", namespace);
        json.put("visibility", "private");
        json.put("archived", false);
        json.put("empty_repo", false);
        json.put("merge_method", project.mergeMethod.apiName());
        json.put("only_allow_merge_if_pipeline_succeeds", project.onlyAllowMergeIfPipelineSucceeds);
        // lib/api/entities/project.rb (17.x to 19.2); the status checks setting is Ultimate's (ee/lib/ee/api/entities/project.rb)
        json.put("only_allow_merge_if_all_discussions_are_resolved", project.onlyAllowMergeIfAllDiscussionsAreResolved);
        json.put("only_allow_merge_if_all_status_checks_passed", project.statusChecksMustPass);
        // ee/lib/ee/api/entities/project.rb (17.x to 19.1): merge trains run on merged results pipelines.
        json.put("merge_pipelines_enabled", project.mergeTrainsEnabled);
        json.put("merge_trains_enabled", project.mergeTrainsEnabled);
        // ee/lib/ee/api/entities/project.rb (16.5+, 17.x to 19.1-pre): "Merge immediately without restarting the train"
        json.put("merge_trains_skip_train_allowed", project.mergeTrainsSkipTrainAllowed);
        json.put("merge_requests_enabled", true);
        return json;
    }

    /** An account's commit email: the simulator's accounts have one address each, under a reserved domain. */
    static String email(GitLabSimulator.User user) {
        return user.username() + "@sandbox.invalid";
    }

    static Map<String, Object> file(String path, String content, String ref, String commitSha, String lastCommitSha) {
        var bytes = content.getBytes(StandardCharsets.UTF_8);
        var json = new LinkedHashMap<String, Object>();
        var slash = path.lastIndexOf('/');
        json.put("file_name", slash < 0 ? path : path.substring(slash + 1));
        json.put("file_path", path);
        json.put("size", bytes.length);
        json.put("encoding", "base64");
        json.put("content", Base64.getEncoder().encodeToString(bytes));
        json.put("content_sha256", digest("SHA-256", bytes));
        json.put("ref", ref);
        json.put("blob_id", digest("SHA-1", ("blob " + bytes.length + "\0" + content).getBytes(StandardCharsets.UTF_8)));
        json.put("commit_id", commitSha);
        json.put("last_commit_id", lastCommitSha);
        json.put("execute_filemode", false);
        return json;
    }

    static Map<String, Object> commit(Project project, Commit commit, String webUrl) {
        var json = commitBasic(project, commit, webUrl);
        var stats = new LinkedHashMap<String, Object>();
        stats.put("additions", commit.additions());
        stats.put("deletions", commit.deletions());
        stats.put("total", commit.additions() + commit.deletions());
        json.put("stats", stats);
        json.put("status", null);
        json.put("project_id", project.id);
        json.put("last_pipeline", null);
        return json;
    }

    static Map<String, Object> commitBasic(Project project, Commit commit, String webUrl) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", commit.sha());
        json.put("short_id", commit.sha().substring(0, 8));
        json.put("created_at", time(commit.at()));
        json.put("parent_ids", commit.parents());
        var firstLine = commit.message().lines().findFirst().orElse("");
        json.put("title", firstLine);
        json.put("message", commit.message());
        json.put("author_name", commit.author().name());
        json.put("author_email", email(commit.author()));
        json.put("authored_date", time(commit.at()));
        json.put("committer_name", commit.author().name());
        json.put("committer_email", commit.author().username() + "@sandbox.invalid");
        json.put("committed_date", time(commit.at()));
        json.put("trailers", Map.of());
        json.put("extended_trailers", Map.of());
        json.put("web_url", webUrl + "/" + project.path + "/-/commit/" + commit.sha());
        return json;
    }

    static Map<String, Object> branch(Project project, Branch branch, Commit head, String webUrl, boolean merged) {
        var json = new LinkedHashMap<String, Object>();
        json.put("name", branch.name);
        json.put("merged", merged);
        var isProtected = project.protectedBranches.contains(branch.name);
        json.put("protected", isProtected);
        json.put("default", branch.name.equals(project.defaultBranch));
        json.put("developers_can_push", false);
        json.put("developers_can_merge", false);
        json.put("can_push", !isProtected);
        json.put("web_url", webUrl + "/" + project.path + "/-/tree/" + branch.name);
        json.put("commit", head == null ? null : commitBasic(project, head, webUrl));
        return json;
    }

    /**
     * A merge request. {@code single} adds what only the single-MR endpoints answer ({@code diff_refs},
     * {@code pipeline}, {@code head_pipeline}, {@code changes_count}, ...); {@code rebase_in_progress} is only
     * there when asked for with {@code include_rebase_in_progress=true}, as on GitLab.
     */
    static Map<String, Object> mergeRequest(Project project, MergeRequest mr, MergeRequestView view, boolean single,
                                            boolean includeRebaseInProgress, String webUrl) {
        var json = mergeRequestHead(project, mr, view.state());
        json.put("merged_by", user(mr.mergedBy, webUrl));
        json.put("merge_user", user(mr.mergedBy, webUrl));
        json.put("merged_at", time(mr.mergedAt));
        json.put("closed_by", user(mr.closedBy, webUrl));
        json.put("closed_at", time(mr.closedAt));
        json.put("target_branch", mr.targetBranch);
        json.put("source_branch", mr.sourceBranch);
        json.put("user_notes_count", 0);
        json.put("upvotes", 0);
        json.put("downvotes", 0);
        json.put("author", user(mr.author, webUrl));
        json.put("assignees", List.of());
        json.put("assignee", null);
        json.put("reviewers", List.of());
        json.put("source_project_id", project.id);
        json.put("target_project_id", project.id);
        json.put("labels", List.of());
        json.put("draft", mr.draft);
        // GitLab 17.8+ answers the merge request's "merge after" time (lib/api/entities/merge_request_basic.rb)
        json.put("merge_after", mr.mergeAfter == null ? null : mr.mergeAfter.toString());
        json.put("work_in_progress", mr.draft);
        json.put("milestone", null);
        json.put("merge_when_pipeline_succeeds", false);
        json.put("merge_status", view.mergeStatus());
        json.put("detailed_merge_status", view.detailedMergeStatus());
        json.put("merge_error", mr.mergeError);
        json.put("sha", view.sha());
        json.put("merge_commit_sha", mr.mergeCommitSha);
        json.put("squash_commit_sha", null);
        json.put("discussion_locked", null);
        json.put("should_remove_source_branch", null);
        json.put("force_remove_source_branch", false);
        json.put("prepared_at", time(mr.createdAt));
        json.put("allow_collaboration", false);
        json.put("allow_maintainer_to_push", false);
        json.put("reference", "!" + mr.iid);
        var references = new LinkedHashMap<String, Object>();
        references.put("short", "!" + mr.iid);
        references.put("relative", "!" + mr.iid);
        references.put("full", project.path + "!" + mr.iid);
        json.put("references", references);
        json.put("web_url", webUrl + "/" + project.path + "/-/merge_requests/" + mr.iid);
        var timeStats = new LinkedHashMap<String, Object>();
        timeStats.put("time_estimate", 0);
        timeStats.put("total_time_spent", 0);
        timeStats.put("human_time_estimate", null);
        timeStats.put("human_total_time_spent", null);
        json.put("time_stats", timeStats);
        json.put("squash", false);
        json.put("squash_on_merge", false);
        var tasks = new LinkedHashMap<String, Object>();
        tasks.put("count", 0);
        tasks.put("completed_count", 0);
        json.put("task_completion_status", tasks);
        json.put("has_conflicts", view.hasConflicts());
        // mergeable_discussions_state? (app/models/merge_request.rb): true unless the project requires resolved threads
        json.put("blocking_discussions_resolved",
                !project.onlyAllowMergeIfAllDiscussionsAreResolved || mr.unresolvedDiscussions == 0);
        json.put("approvals_before_merge", null);
        if (single) {
            json.put("subscribed", false);
            json.put("changes_count", String.valueOf(view.changesCount()));
            json.put("latest_build_started_at", null);
            json.put("latest_build_finished_at", null);
            json.put("first_deployed_to_production_at", null);
            json.put("pipeline", view.headPipeline());
            json.put("head_pipeline", view.headPipeline());
            var diffRefs = new LinkedHashMap<String, Object>();
            diffRefs.put("base_sha", view.baseSha());
            diffRefs.put("head_sha", view.sha());
            diffRefs.put("start_sha", view.baseSha());
            json.put("diff_refs", diffRefs);
            json.put("first_contribution", false);
            var user = new LinkedHashMap<String, Object>();
            user.put("can_merge", true);
            json.put("user", user);
        }
        if (includeRebaseInProgress) {
            json.put("rebase_in_progress", view.rebaseInProgress());
        }
        return json;
    }

    /** A pipeline as lists show it (merge request pipelines, project pipelines). */
    static Map<String, Object> pipelineBasic(Project project, Pipeline pipeline, String status, String webUrl) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", pipeline.id);
        json.put("iid", pipeline.iid);
        json.put("project_id", project.id);
        json.put("sha", pipeline.sha);
        json.put("ref", pipeline.ref);
        json.put("status", status);
        json.put("source", pipeline.source);
        json.put("created_at", time(pipeline.createdAt));
        json.put("updated_at", time(pipeline.createdAt));
        json.put("web_url", webUrl + "/" + project.path + "/-/pipelines/" + pipeline.id);
        return json;
    }

    /** A single pipeline ({@code GET /projects/:id/pipelines/:pipeline_id}). */
    static Map<String, Object> pipeline(Project project, Pipeline pipeline, String status, PipelineTimes times,
                                        String webUrl) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", pipeline.id);
        json.put("iid", pipeline.iid);
        json.put("project_id", project.id);
        json.put("name", null);
        json.put("sha", pipeline.sha);
        json.put("ref", pipeline.ref);
        json.put("status", status);
        json.put("source", pipeline.source);
        json.put("before_sha", pipeline.beforeSha);
        json.put("tag", false);
        json.put("yaml_errors", null);
        json.put("user", user(pipeline.user, webUrl));
        json.put("created_at", time(pipeline.createdAt));
        var finished = times.finishedAt() != null && !status.equals("running") && !status.equals("pending");
        json.put("updated_at", time(finished ? times.finishedAt() : pipeline.createdAt));
        json.put("started_at", time(times.startedAt()));
        json.put("finished_at", finished ? time(times.finishedAt()) : null);
        json.put("committed_at", null);
        json.put("duration", finished && times.startedAt() != null
                ? (int) Duration.between(times.startedAt(), times.finishedAt()).toSeconds() : null);
        json.put("queued_duration", times.startedAt() == null ? null
                : (double) Duration.between(pipeline.createdAt, times.startedAt()).toMillis() / 1000.0);
        json.put("coverage", null);
        json.put("web_url", webUrl + "/" + project.path + "/-/pipelines/" + pipeline.id);
        var detailed = new LinkedHashMap<String, Object>();
        detailed.put("icon", "status_" + status);
        detailed.put("text", status);
        detailed.put("label", "success".equals(status) ? "passed" : status);
        detailed.put("group", status);
        detailed.put("tooltip", "success".equals(status) ? "passed" : status);
        detailed.put("has_details", true);
        detailed.put("details_path", "/" + project.path + "/-/pipelines/" + pipeline.id);
        detailed.put("illustration", null);
        detailed.put("favicon", "/assets/ci_favicons/favicon_status_" + status + ".png");
        json.put("detailed_status", detailed);
        return json;
    }

    /** {@code GET .../approvals} and the answer of {@code POST .../approve}. */
    static Map<String, Object> approvals(Project project, MergeRequest mr, User caller, int approvalsRequired,
                                         String mergeStatus, String webUrl) {
        var json = mergeRequestHead(project, mr, mr.state);
        json.put("merge_status", mergeStatus);
        var count = mr.approvals.size();
        json.put("approved", count >= approvalsRequired);
        json.put("approvals_required", approvalsRequired);
        json.put("approvals_left", Math.max(0, approvalsRequired - count));
        json.put("require_password_to_approve", false);
        var approvedBy = new ArrayList<Map<String, Object>>();
        for (var approval : mr.approvals) {
            var entry = new LinkedHashMap<String, Object>();
            entry.put("user", user(approval.user(), webUrl));
            entry.put("approved_at", time(approval.at()));
            approvedBy.add(entry);
        }
        json.put("approved_by", approvedBy);
        json.put("suggested_approvers", List.of());
        json.put("approvers", List.of());
        json.put("approver_groups", List.of());
        var hasApproved = mr.approvals.stream().anyMatch(a -> a.user() == caller);
        json.put("user_has_approved", hasApproved);
        json.put("user_can_approve", !hasApproved && mr.author != caller && mr.state.equals("opened"));
        json.put("approval_rules_left", List.of());
        json.put("has_approval_rules", false);
        json.put("merge_request_approvers_available", true);
        json.put("multiple_approval_rules_available", true);
        json.put("invalid_approvers_rules", List.of());
        return json;
    }

    /** The fields a merge request and its approvals both open with, {@code state} as the caller shows it. */
    private static Map<String, Object> mergeRequestHead(Project project, MergeRequest mr, String state) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", mr.id);
        json.put("iid", mr.iid);
        json.put("project_id", project.id);
        json.put("title", mr.title);
        json.put("description", mr.description);
        json.put("state", state);
        json.put("created_at", time(mr.createdAt));
        json.put("updated_at", time(mr.updatedAt));
        return json;
    }

    private static String digest(String algorithm, byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JDK", e);
        }
    }
}
