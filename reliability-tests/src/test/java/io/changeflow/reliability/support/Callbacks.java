package io.changeflow.reliability.support;

import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.AppInstance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/** Posts raw callback bytes with their signature headers, as the approval system or the deploy pipeline would. */
public final class Callbacks {

    public static final String APPROVAL = "/callbacks/approval";
    public static final String DEPLOY = "/callbacks/deploy";

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private Callbacks() {
    }

    /** The JSON bytes of {@code body}. */
    public static byte[] json(Object body) {
        return ApiClient.JSON.writeValueAsBytes(body);
    }

    /** Signs {@code body} with {@code secret} now (fresh webhook-id) and posts it. */
    public static ApiResponse signedPost(AppInstance instance, String path, String secret, byte[] body) {
        return post(instance, path, body, Webhooks.headers(secret, Webhooks.newId(), body));
    }

    /** Posts {@code body} with exactly {@code headers}. */
    public static ApiResponse post(AppInstance instance, String path, byte[] body, Map<String, String> headers) {
        var builder = HttpRequest.newBuilder(instance.baseUrl().resolve(path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(builder::header);
        var started = System.nanoTime();
        try {
            var response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new ApiResponse(response.statusCode(), response.headers(), response.body(), parse(response.body()),
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + path + " to " + instance + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? MissingNode.getInstance() : ApiClient.JSON.readTree(body);
        } catch (JacksonException e) {
            return MissingNode.getInstance();
        }
    }
}
