package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The approval check items each project requires, read from the upstream configuration API
 * ({@code GET /projects/:id/approval_check_items}) and cached per project for a while. Never hard-coded:
 * when a project's items change, the approval that used the stale list is answered 422 with the list in
 * effect, and {@link #replace} stores it.
 */
final class CheckItems {

    private record Cached(List<String> items, Instant fetchedAt) {}

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Cached> byProject = new ConcurrentHashMap<>();

    CheckItems(GitLabCalls calls, GitLabHttp http, Duration ttl, Clock clock) {
        this.calls = calls;
        this.http = http;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** The items of {@code project}: from the cache while fresh, otherwise read with {@code bot}'s token. */
    List<String> of(String project, ApprovalBot bot) {
        var cached = byProject.get(project);
        if (cached != null && clock.instant().isBefore(cached.fetchedAt().plus(ttl))) {
            return cached.items();
        }
        var items = calls.call("readCheckItems", () -> {
            var response = http.get(GitLabHttp.projectPath(project) + "/approval_check_items", bot.token());
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            return GitLabHttp.checkItems(response.body()).orElse(List.of());
        });
        replace(project, items);
        return items;
    }

    /** Stores the items GitLab says are in effect now. */
    void replace(String project, List<String> items) {
        byProject.put(project, new Cached(List.copyOf(items), clock.instant()));
    }
}
