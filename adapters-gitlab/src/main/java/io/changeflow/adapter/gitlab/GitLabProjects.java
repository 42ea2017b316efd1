package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The workflow's reads of a project ({@code GET /projects/:id}, lib/api/projects.rb with the author bot's token), issue 33
 * item 3: the default branch a create step bases its branch and merge request on is served from a per-project cache
 * for {@code changeflow.gitlab.project-cache-ttl} (default 1 min; 0: off), since a request otherwise reads it once per
 * create step although it changes only when a maintainer renames the branch. The read before every merge (merge trains,
 * issue 35) is never served from the cache: a stale "no train" or "skipping allowed" would send a merge that restarts
 * every pipeline on a train that may not be skipped, which is a merge that should not happen, not merely a refused one.
 * That read refreshes the cache. A stale default branch costs what a rename right after the create step costs: a branch
 * or merge request GitLab refuses on a branch that is gone (the step fails and runs again), or a merge request on the
 * old branch as before this cache.
 */
final class GitLabProjects {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the workflow reads of a project. */
    record Settings(String defaultBranch, boolean mergeTrainsEnabled, boolean mergeTrainsSkipTrainAllowed) {}

    private record Cached(Settings settings, Instant readAt) {}

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final Supplier<String> authorToken;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Cached> byProject = new ConcurrentHashMap<>();

    /** @param ttl how long a read's default branch is served from the cache; zero: never */
    GitLabProjects(GitLabCalls calls, GitLabHttp http, Supplier<String> authorToken, Duration ttl, Clock clock) {
        this.calls = calls;
        this.http = http;
        this.authorToken = authorToken;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** The project's default branch: from a read at most {@code ttl} old, else read now (operation "defaultBranch"). */
    String defaultBranch(String project) {
        var cached = byProject.get(project);
        if (cached != null && clock.instant().isBefore(cached.readAt().plus(ttl))) {
            return cached.settings().defaultBranch();
        }
        return readNow(project, "defaultBranch").defaultBranch();
    }

    /** The project as GitLab answers now (a read: tried again on a transient failure); refreshes the cache. */
    Settings readNow(String project, String operation) {
        var settings = calls.read(operation, () -> {
            var response = http.get(GitLabHttp.projectPath(project), authorToken.get());
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            var json = JSON.readTree(response.body());
            var defaultBranch = json.path("default_branch");
            return new Settings(defaultBranch.isTextual() ? defaultBranch.asText() : null,
                    json.path("merge_trains_enabled").asBoolean(false),
                    json.path("merge_trains_skip_train_allowed").asBoolean(false));
        });
        if (!ttl.isZero()) {
            byProject.put(project, new Cached(settings, clock.instant()));
        }
        return settings;
    }
}
