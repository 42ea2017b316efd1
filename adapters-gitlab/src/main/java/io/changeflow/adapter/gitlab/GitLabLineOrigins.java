package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.domain.drift.Evidence;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@link LineOrigins} on GitLab's file blame, {@code GET /projects/:id/repository/files/:file_path/blame?ref=}
 * (lib/api/files.rb; the answer is a list of {@code Entities::BlameRange}: {@code commit} as
 * {@code Entities::BlameRangeCommit} with {@code id}, {@code author_name}, {@code authored_date}, ..., and the
 * {@code lines} it last changed; lib/api/entities/blame_range.rb, GitLab 16-17). One read as the author bot, through
 * the workflow's calls (breaker, timeouts, the shared call budget). A file or ref GitLab does not know is no origins.
 */
final class GitLabLineOrigins implements LineOrigins {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final GitLabProperties properties;
    private final GitLabCalls calls;
    private final GitLabHttp http;

    GitLabLineOrigins(GitLabProperties properties, GitLabCalls calls, GitLabHttp http) {
        this.properties = properties;
        this.calls = calls;
        this.http = http;
    }

    @Override
    public Map<String, Evidence> of(String project, String ref, String path) {
        var url = GitLabHttp.projectPath(project) + "/repository/files/" + encode(path) + "/blame?ref=" + encode(ref);
        return calls.read("blame", () -> {
            var response = http.get(url, properties.author().token());
            if (response.statusCode() == 404) {
                return Map.<String, Evidence>of();
            }
            if (!GitLabHttp.isSuccess(response)) {
                throw GitLabHttp.failure(response);
            }
            return origins(JSON.readTree(response.body()));
        });
    }

    /** Each line (stripped) of the ranges, with its range's commit; the first of equal lines wins. */
    static Map<String, Evidence> origins(JsonNode ranges) {
        var origins = new HashMap<String, Evidence>();
        if (!ranges.isArray()) {
            return origins;
        }
        for (var range : ranges) {
            var commit = range.path("commit");
            var evidence = new Evidence(text(commit, "id"), text(commit, "author_name"),
                    text(commit, "authored_date").flatMap(GitLabLineOrigins::instant));
            for (var line : range.path("lines")) {
                var stripped = line.asText("").strip();
                if (!stripped.isEmpty()) {
                    origins.putIfAbsent(stripped, evidence);
                }
            }
        }
        return origins;
    }

    private static Optional<String> text(JsonNode node, String field) {
        var value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    private static Optional<Instant> instant(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
