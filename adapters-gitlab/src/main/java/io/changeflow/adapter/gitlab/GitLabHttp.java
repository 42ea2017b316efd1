package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changeflow.application.port.out.ExternalCallException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.gitlab4j.api.GitLabApiException;

/**
 * Plain HTTP to GitLab's REST v4 for what the client library cannot express (the approval with check
 * items, the upstream configuration API). Same connect and read timeouts as the client library; failures
 * are thrown as the client library's {@link GitLabApiException} with the real status, so they are
 * translated like every other call.
 */
final class GitLabHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<String> baseUrl;
    private final Duration readTimeout;
    private final HttpClient client;
    private final TraceHeaders traceHeaders;
    private final GitLabRateLimitHeaders rateLimitHeaders;

    GitLabHttp(GitLabProperties properties, Supplier<String> baseUrl, TraceHeaders traceHeaders) {
        this(properties, baseUrl, traceHeaders, GitLabRateLimitHeaders.NONE);
    }

    /** @param rateLimitHeaders what reads GitLab's {@code RateLimit-*} headers of every answer */
    GitLabHttp(GitLabProperties properties, Supplier<String> baseUrl, TraceHeaders traceHeaders,
               GitLabRateLimitHeaders rateLimitHeaders) {
        this.baseUrl = baseUrl;
        this.traceHeaders = traceHeaders;
        this.rateLimitHeaders = rateLimitHeaders;
        this.readTimeout = properties.readTimeout();
        this.client = HttpClient.newBuilder()
                .connectTimeout(properties.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** {@code /projects/<url-encoded path or id>}. */
    static String projectPath(String project) {
        return "/projects/" + URLEncoder.encode(project, StandardCharsets.UTF_8).replace("+", "%20");
    }

    HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        return read(token, client.send(request(path, token).GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    HttpResponse<String> postJson(String path, String token, Object body) throws IOException, InterruptedException {
        var request = request(path, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8));
        return read(token, client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    HttpResponse<String> putJson(String path, String token, Object body) throws IOException, InterruptedException {
        var request = request(path, token)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8));
        return read(token, client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    /** {@code response}, its {@code RateLimit-*} headers read first. */
    private HttpResponse<String> read(String token, HttpResponse<String> response) {
        rateLimitHeaders.observe(token, response.statusCode(), name -> response.headers().firstValue(name).orElse(null));
        return response;
    }

    /** A request to {@code path} as {@code token}'s bot, carrying the caller's trace context. */
    private HttpRequest.Builder request(String path, String token) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl.get() + "/api/v4" + path))
                .timeout(readTimeout)
                .header("PRIVATE-TOKEN", token)
                .header("Accept", "application/json");
        traceHeaders.current().forEach(request::header);
        return request;
    }

    static boolean isSuccess(HttpResponse<?> response) {
        return response.statusCode() >= 200 && response.statusCode() < 300;
    }

    /**
     * GitLab's error, as the client library would raise it: the status and the body's {@code message}; a 429 as
     * the port's transient failure carrying the wait GitLab asked for.
     */
    static Exception failure(HttpResponse<String> response) {
        if (response.statusCode() == 429) {
            var wait = RateLimitAnswer.waitOf(name -> response.headers().firstValue(name).orElse(null), Instant.now());
            return new ExternalCallException(GitLabCalls.SYSTEM, ExternalCallException.Kind.HTTP_STATUS, 429,
                    "HTTP 429, GitLab asks to wait " + wait, null, wait);
        }
        var message = json(response.body())
                .map(body -> body.has("message") ? body.get("message") : body.get("error"))
                .map(node -> node.isTextual() ? node.asText() : node.toString())
                .orElse("HTTP " + response.statusCode());
        return new GitLabApiException(message, response.statusCode());
    }

    /** The {@code check_items} list of a JSON body, if it has one. */
    static Optional<List<String>> checkItems(String body) {
        return json(body).map(node -> node.get("check_items")).filter(JsonNode::isArray).map(array -> {
            var items = new ArrayList<String>();
            array.forEach(item -> items.add(item.isTextual() ? item.asText() : item.toString()));
            return List.copyOf(items);
        });
    }

    private static Optional<JsonNode> json(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(body));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
