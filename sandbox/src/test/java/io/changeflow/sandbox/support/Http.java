package io.changeflow.sandbox.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A tiny JSON-over-HTTP client for the tests. */
public final class Http {

    /** An answer: status and parsed body (a missing node when the body was empty). */
    public record Answer(int status, JsonNode json) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String base;

    public Http(int port) {
        this.base = "http://localhost:" + port;
    }

    public Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    public Answer post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Answer put(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Answer delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            var response = client.send(request.header("content-type", "application/json")
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            var body = response.body();
            return new Answer(response.statusCode(), body == null || body.isBlank()
                    ? JSON.missingNode() : JSON.readTree(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
