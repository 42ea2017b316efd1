package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approval check items each project requires, read from the upstream configuration API
 * ({@code GET /projects/:id/approval_check_items}) and cached per project for a while. Never hard-coded:
 * when a project's items change, the approval that used the stale list is answered 422 with the list in
 * effect, and {@link #replace} stores it.
 *
 * <p>Stock GitLab has no such API: it answers 404. Then the project has no check items at all
 * ({@link #of} is empty, remembered like items for the cache's time, and logged once per project), and the
 * caller approves the ordinary way.
 */
final class CheckItems {

    /** @param items null: the GitLab has no check-items extension for this project (404) */
    private record Cached(List<String> items, Instant fetchedAt) {}

    private static final Logger LOG = LoggerFactory.getLogger(CheckItems.class);

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Cached> byProject = new ConcurrentHashMap<>();
    private final Set<String> loggedWithoutExtension = ConcurrentHashMap.newKeySet();

    CheckItems(GitLabCalls calls, GitLabHttp http, Duration ttl, Clock clock) {
        this.calls = calls;
        this.http = http;
        this.ttl = ttl;
        this.clock = clock;
    }

    /**
     * The items of {@code project}: from the cache while fresh, otherwise read with {@code bot}'s token.
     *
     * @return empty when this GitLab has no check-items API (404): approve without items
     */
    Optional<List<String>> of(String project, ApprovalBot bot) {
        var cached = byProject.get(project);
        if (cached != null && clock.instant().isBefore(cached.fetchedAt().plus(ttl))) {
            return Optional.ofNullable(cached.items());
        }
        var items = calls.call("readCheckItems", () -> {
            var response = http.get(GitLabHttp.projectPath(project) + "/approval_check_items", bot.token());
            if (response.statusCode() == 404) {
                return Optional.<List<String>>empty();
            }
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            return Optional.of(GitLabHttp.checkItems(response.body()).orElse(List.of()));
        });
        if (items.isEmpty()) {
            byProject.put(project, new Cached(null, clock.instant()));
            if (loggedWithoutExtension.add(project)) {
                LOG.warn("GitLab has no approval check items API for {} (404 on approval_check_items): approving it "
                        + "with the client library, without check items", project);
            }
            return items;
        }
        replace(project, items.get());
        return items;
    }

    /** Stores the items GitLab says are in effect now. */
    void replace(String project, List<String> items) {
        byProject.put(project, new Cached(List.copyOf(items), clock.instant()));
    }
}
