package io.changeflow.bootstrap.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The app's HTTP API as one person calls it, for arranging and checking what the browser does not
 * show: the identity travels as {@code X-Forwarded-User}, which the app honours from loopback (its
 * default trusted proxy), exactly as behind the organisation's login proxy.
 */
final class AppClient {

    /** An answer: HTTP status and the parsed body (a missing node for an empty one). */
    record Answer(int status, JsonNode json) {

        String code() {
            return json.path("code").asString("");
        }

        JsonNode data() {
            return json.path("data");
        }
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String base;
    private final String user;

    AppClient(String base, String user) {
        this.base = base;
        this.user = user;
    }

    Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Answer post(String path, Object body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    Answer put(String path, Object body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    /** Asks {@code path} until {@code until} holds for the answer; fails with the last answer after {@code timeout}. */
    Answer await(String path, Predicate<Answer> until, Duration timeout) {
        var deadline = Instant.now().plus(timeout);
        Answer last;
        do {
            last = get(path);
            if (until.test(last)) {
                return last;
            }
            sleep(200);
        } while (Instant.now().isBefore(deadline));
        throw new AssertionError("GET " + path + " as " + user + " did not reach the expected answer within " + timeout
                + "; last: " + last.status() + " " + last.json());
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            var response = HTTP.send(request
                    .header("X-Forwarded-User", user)
                    .header("Accept", "application/json")
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
            var body = response.body();
            return new Answer(response.statusCode(), body == null || body.isBlank() ? JSON.missingNode() : JSON.readTree(body));
        } catch (IOException e) {
            throw new IllegalStateException("cannot call " + base + " as " + user, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
