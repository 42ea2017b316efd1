package io.changeflow.sandbox.gitlab;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project webhooks of the simulator (issue 33 item 3) and what each has been told: GitLab's project hooks as
 * {@code GET /projects/:id/hooks} lists them ({@code doc/api/project_webhooks.md}, {@code lib/api/entities/project_hook.rb}:
 * the token is never listed) and the events due since the last look, payloads shaped as
 * {@code doc/user/project/integrations/webhook_events.md} shows them ({@code lib/gitlab/data_builder/pipeline.rb}: a
 * pipeline event carries {@code merge_request} only for a merge request pipeline; {@code
 * lib/gitlab/data_builder/merge_request.rb}-style merge request events with {@code object_attributes.action}). Guarded by
 * the simulator's lock.
 */
final class GitLabProjectHooks {

    /** A project hook. {@code token} is sent in {@code X-Gitlab-Token}, never listed. */
    record Hook(long id, long projectId, String url, String token, boolean mergeRequestsEvents, boolean pipelineEvents,
                Instant createdAt) {
        Map<String, Object> json(String resolvedUrl) {
            var json = new LinkedHashMap<String, Object>();
            json.put("id", id);
            json.put("url", resolvedUrl);
            json.put("name", null);
            json.put("project_id", projectId);
            json.put("push_events", false);
            json.put("merge_requests_events", mergeRequestsEvents);
            json.put("pipeline_events", pipelineEvents);
            json.put("enable_ssl_verification", true);
            json.put("alert_status", "executable");
            json.put("disabled_until", null);
            json.put("created_at", createdAt.toString());
            return json;
        }
    }

    /** An event for one hook: {@code event} is the {@code X-Gitlab-Event} header's value. */
    record Delivery(Hook hook, String event, Map<String, Object> payload) {}

    private final Map<Long, List<Hook>> byProject = new HashMap<>();
    private final Map<Long, String> toldPipelines = new HashMap<>();
    private final Map<Long, String> toldMergeRequests = new HashMap<>();
    private long nextId = 1;

    Hook add(long projectId, String url, String token, boolean mergeRequestsEvents, boolean pipelineEvents, Instant now) {
        var hook = new Hook(nextId++, projectId, url, token, mergeRequestsEvents, pipelineEvents, now);
        byProject.computeIfAbsent(projectId, id -> new ArrayList<>()).add(hook);
        return hook;
    }

    void removeAll(long projectId) {
        byProject.remove(projectId);
    }

    List<Hook> of(long projectId) {
        return List.copyOf(byProject.getOrDefault(projectId, List.of()));
    }

    void reset() {
        byProject.clear();
        toldPipelines.clear();
        toldMergeRequests.clear();
        nextId = 1;
    }

    /** Whether the pipeline's {@code status} is news (and remembers it). */
    boolean pipelineNews(long pipelineId, String status) {
        return !status.equals(toldPipelines.put(pipelineId, status));
    }

    /** The action a merge request's new {@code state} and head are, or null when nothing changed (remembered). */
    String mergeRequestNews(long mergeRequestId, String state, String sha) {
        var now = state + " " + sha;
        var before = toldMergeRequests.put(mergeRequestId, now);
        if (now.equals(before)) {
            return null;
        }
        if (before == null) {
            return state.equals("opened") ? "open" : null;
        }
        return switch (state) {
            case "merged" -> "merge";
            case "closed" -> "close";
            default -> before.startsWith("closed") ? "reopen" : "update";
        };
    }
}
