package io.changeflow.adapter.gitlab;

import java.util.LinkedHashMap;
import java.util.function.Supplier;

/**
 * How a merge is sent on a project with merge trains (issue 35, docs/external-systems-gitlab.md "GitLab as it
 * behaves"). Changeflow never joins a train; it merges with {@code skip_merge_train=true}, which GitLab honours only
 * where the project allows "Merge immediately without restarting the train": the merge service skips the train when
 * {@code params[:skip_merge_train] && project.merge_trains_skip_train_allowed?}
 * (ee/app/services/ee/merge_requests/merge_service.rb, the parameter in ee/lib/ee/api/merge_requests.rb; 16.5+, read at
 * 17.x to 19.1-pre), and otherwise merges anyway and restarts every pipeline on the train. So the project is read
 * ({@code GET /projects/:id}: {@code merge_trains_enabled}, {@code merge_trains_skip_train_allowed}) before each merge,
 * and a train that may not be skipped is not merged into at all. gitlab4j's {@code AcceptMergeRequestParams} has no
 * {@code skip_merge_train}: that merge is a plain {@code PUT} with the author bot's token through the same
 * {@link GitLabCalls} (timeouts, breaker, budget).
 */
final class GitLabMergeTrains {

    /** How the project takes a merge from outside a train. */
    enum Way {
        /** No merge trains: the plain merge. */
        PLAIN,
        /** Merge trains on, skipping allowed: merge with {@code skip_merge_train=true}. */
        SKIP_TRAIN,
        /** Merge trains on, skipping not allowed: a merge would restart the train; not merged. */
        NOT_SKIPPABLE
    }

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final Supplier<String> authorToken;
    private final GitLabProjects projects;

    GitLabMergeTrains(GitLabCalls calls, GitLabHttp http, Supplier<String> authorToken, GitLabProjects projects) {
        this.calls = calls;
        this.http = http;
        this.authorToken = authorToken;
        this.projects = projects;
    }

    /** Reads the project's merge train settings now, never from a cache ({@link GitLabProjects}); a read, retried. */
    Way wayFor(String project) {
        var settings = projects.readNow(project, "mergeTrains");
        if (!settings.mergeTrainsEnabled()) {
            return Way.PLAIN;
        }
        return settings.mergeTrainsSkipTrainAllowed() ? Way.SKIP_TRAIN : Way.NOT_SKIPPABLE;
    }

    /** The project reads this merge shares with the workflow's other reads of the project. */
    GitLabProjects projects() {
        return projects;
    }

    /**
     * {@code PUT /projects/:id/merge_requests/:iid/merge} with {@code sha} and {@code skip_merge_train=true}, once (a
     * write); GitLab's refusals leave as the client library's exception with their status, read like the plain merge's.
     */
    void mergeSkippingTheTrain(String project, long iid, String sha) {
        var body = new LinkedHashMap<String, Object>();
        body.put("sha", sha);
        body.put("skip_merge_train", true);
        calls.call("merge", () -> {
            var response = http.putJson(GitLabHttp.projectPath(project) + "/merge_requests/" + iid + "/merge",
                    authorToken.get(), body);
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            return null;
        });
    }
}
