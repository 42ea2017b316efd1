package io.changeflow.systemtest.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * A small HTTP client of one Changeflow instance (or of the simulator host), speaking as one person:
 * every request carries {@code X-Forwarded-User}, which the service honours from loopback (its
 * default trusted proxy), and {@code X-Requested-With} as the web app does (the service refuses writes
 * without it or a JSON body as cross-site). JSON in and out (Jackson of Spring Boot); never throws for an HTTP error
 * status, only for an I/O failure ({@link UncheckedIOException}), e.g. when the instance is down.
 *
 * <pre>{@code
 * var alice = instance.client("alice");
 * var submitted = alice.submit("db-prod-readonly", "svc-report", "nightly report");
 * var view = alice.request(submitted.data().path("operationId").asString());
 * var otto = instance.client("otto");          // the operator of the embedded directory
 * otto.post("/ops/batch-rounds?partition=global", null);
 * }</pre>
 */
public final class ApiClient {

    /** Shared by all clients: Jackson's mapper of Spring Boot 4 (Jackson 3). */
    public static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final URI base;
    private final String user;
    private final Duration timeout;

    /**
     * @param base e.g. {@code http://127.0.0.1:41234}
     * @param user the login identity sent as {@code X-Forwarded-User}; null sends none
     */
    public ApiClient(URI base, String user) {
        this(base, user, Duration.ofSeconds(20));
    }

    private ApiClient(URI base, String user, Duration timeout) {
        this.base = Objects.requireNonNull(base, "base");
        this.user = user;
        this.timeout = timeout;
    }

    /** The same instance, as another person. */
    public ApiClient as(String otherUser) {
        return new ApiClient(base, otherUser, timeout);
    }

    /** The same instance and person, with another per-request timeout (default 20 s). */
    public ApiClient withTimeout(Duration requestTimeout) {
        return new ApiClient(base, user, requestTimeout);
    }

    public URI base() {
        return base;
    }

    public String user() {
        return user;
    }

    public ApiResponse get(String path) {
        return send("GET", path, null, Map.of());
    }

    /** A GET with extra headers (e.g. {@code Accept: text/html}). */
    public ApiResponse get(String path, Map<String, String> headers) {
        return send("GET", path, null, headers);
    }

    /** POST with a JSON body ({@code body} is serialized; null sends no body). */
    public ApiResponse post(String path, Object body) {
        return send("POST", path, body, Map.of());
    }

    public ApiResponse put(String path, Object body) {
        return send("PUT", path, body, Map.of());
    }

    public ApiResponse delete(String path) {
        return send("DELETE", path, null, Map.of());
    }

    /** Any method, with extra headers (e.g. {@code PRIVATE-TOKEN} for the GitLab simulator's REST API). */
    public ApiResponse send(String method, String path, Object body, Map<String, String> headers) {
        return exchange(method, path, body, headers);
    }

    // ------------------------------------------------------------------ the API of docs/api.md

    /** {@code POST /api/requests} with a fresh operationId, no expiry. */
    public ApiResponse submit(String targetKey, String subjectId, String reason) {
        return submit(UUID.randomUUID().toString(), targetKey, subjectId, reason);
    }

    /** {@code POST /api/requests}. */
    public ApiResponse submit(String operationId, String targetKey, String subjectId, String reason) {
        return submit(operationId, targetKey, subjectId, reason, null);
    }

    /** {@code POST /api/requests} with an {@code expiresAt} (null: none). */
    public ApiResponse submit(String operationId, String targetKey, String subjectId, String reason, String expiresAt) {
        var body = new LinkedHashMap<String, Object>();
        body.put("operationId", operationId);
        body.put("targetKey", targetKey);
        body.put("subjectId", subjectId);
        body.put("reason", reason);
        if (expiresAt != null) {
            body.put("expiresAt", expiresAt);
        }
        return post("/api/requests", body);
    }

    /** {@code GET /api/bindings}: my rows ({@code data}). */
    public JsonNode bindings() {
        var response = get("/api/bindings");
        if (response.status() != 200) {
            throw new IllegalStateException("GET /api/bindings: " + response);
        }
        return response.data();
    }

    /** {@code GET /api/requests/{operationId}}: the request view ({@code data}), or fails when not 200. */
    public RequestView request(String operationId) {
        var response = get("/api/requests/" + operationId);
        if (response.status() != 200) {
            throw new IllegalStateException("GET /api/requests/" + operationId + ": " + response);
        }
        return new RequestView(response.data());
    }

    /** {@code GET /ops/operations/{operationId}} (operators): view, binding, history, audit. */
    public JsonNode operation(String operationId) {
        return okData(get("/ops/operations/" + operationId), "GET /ops/operations/" + operationId);
    }

    /** {@code GET /ops/config} (operators): the entry of one dynamic setting. */
    public JsonNode configEntry(String key) {
        for (var entry : okData(get("/ops/config"), "GET /ops/config")) {
            if (key.equals(entry.path("key").asString(""))) {
                return entry;
            }
        }
        return MissingNode.getInstance();
    }

    /** {@code GET /ops/batches?limit=} (operators). */
    public JsonNode batches(int limit) {
        return okData(get("/ops/batches?limit=" + limit), "GET /ops/batches");
    }

    /** {@code POST /ops/batch-rounds?partition=} (operators): CLAIMED, SLOT_OCCUPIED or NOTHING_TO_CLAIM. */
    public ApiResponse batchRound(String partition) {
        return post("/ops/batch-rounds?partition=" + URLEncoder.encode(partition, StandardCharsets.UTF_8), null);
    }

    /** {@code POST /ops/batches/{id}/settle} (operators). */
    public ApiResponse settleBatch(long batchId) {
        return post("/ops/batches/" + batchId + "/settle", null);
    }

    private static JsonNode okData(ApiResponse response, String what) {
        if (response.status() != 200) {
            throw new IllegalStateException(what + ": " + response);
        }
        return response.data();
    }

    // ------------------------------------------------------------------ plumbing

    private ApiResponse exchange(String method, String path, Object body, Map<String, String> headers) {
        var builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        if (user != null) {
            builder.header("X-Forwarded-User", user);
        }
        headers.forEach(builder::header);
        if (!headers.containsKey("X-Requested-With")) {
            builder.header("X-Requested-With", "XMLHttpRequest");
        }
        if (body != null) {
            builder.header("Content-Type", "application/json");
            builder.method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        } else {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        if (!headers.containsKey("Accept")) {
            builder.header("Accept", "application/json");
        }
        var started = System.nanoTime();
        HttpResponse<String> response;
        try {
            response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + base.resolve(path) + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
        var latency = Duration.ofNanos(System.nanoTime() - started);
        return new ApiResponse(response.statusCode(), response.headers(), response.body(), parse(response.body()), latency);
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            return MissingNode.getInstance();
        }
    }
}
