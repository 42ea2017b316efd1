package io.changeflow.systemtest.harness;

import java.net.http.HttpHeaders;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * One answer of the service.
 *
 * @param status  the HTTP status
 * @param headers the response headers
 * @param body    the raw body text
 * @param json    the body parsed as JSON; {@link MissingNode} when it is not JSON
 * @param latency from sending the request to the whole body read
 */
public record ApiResponse(int status, HttpHeaders headers, String body, JsonNode json, Duration latency) {

    /** The envelope's {@code code} ({@code ACCEPTED}, {@code OK}, ...), or empty text. */
    public String code() {
        return json.path("code").asString("");
    }

    /** The envelope's {@code data}; {@link MissingNode} when absent. */
    public JsonNode data() {
        return json.path("data");
    }

    public String header(String name) {
        return headers.firstValue(name).orElse(null);
    }

    public boolean is2xx() {
        return status >= 200 && status < 300;
    }

    @Override
    public String toString() {
        var text = body.length() > 600 ? body.substring(0, 600) + "..." : body;
        return "HTTP " + status + " " + text;
    }
}
