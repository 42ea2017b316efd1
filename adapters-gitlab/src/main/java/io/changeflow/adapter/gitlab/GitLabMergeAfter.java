package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A merge request's "merge after" time (GitLab 17.5+, {@code merge_after} of {@code GET .../merge_requests/:iid},
 * lib/api/entities/merge_request_basic.rb; until then {@code detailed_merge_status} is {@code merge_time},
 * app/services/merge_requests/mergeability/check_merge_time_service.rb; read at 17.x to 19.1-pre). gitlab4j 6.2.0 does
 * not map the field, so it is read over plain HTTP, and only where GitLab reports {@code merge_time} (issue 35).
 */
final class GitLabMergeAfter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final Supplier<String> authorToken;

    GitLabMergeAfter(GitLabCalls calls, GitLabHttp http, Supplier<String> authorToken) {
        this.calls = calls;
        this.http = http;
        this.authorToken = authorToken;
    }

    /** The merge request's {@code merge_after}; empty when it has none or GitLab's value cannot be read. */
    Optional<Instant> of(String project, long iid) {
        return calls.read("mergeAfter", () -> {
            var response = http.get(GitLabHttp.projectPath(project) + "/merge_requests/" + iid, authorToken.get());
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            var value = JSON.readTree(response.body()).path("merge_after");
            if (!value.isTextual()) {
                return Optional.<Instant>empty();
            }
            try {
                return Optional.of(java.time.OffsetDateTime.parse(value.asText()).toInstant());
            } catch (DateTimeParseException garbled) {
                return Optional.<Instant>empty();
            }
        });
    }
}
