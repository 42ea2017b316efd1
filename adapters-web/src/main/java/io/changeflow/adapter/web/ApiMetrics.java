package io.changeflow.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

/**
 * Records API latency and status ({@value #NAME}, a timer tagged with the URI template, method,
 * status and outcome) exactly once per request. The normal path is {@link ApiMetricsInterceptor};
 * requests the interceptor never completes (answered by an earlier interceptor with 401, 403 or
 * 429, or by a filter with 413) are recorded by {@link RequestTraceFilter} when the request ends,
 * so every endpoint and every status is covered. Never throws.
 */
final class ApiMetrics {

    static final String NAME = "changeflow.api.requests";

    private static final String RECORDED = ApiMetrics.class.getName() + ".recorded";

    private final SafeMeters meters;

    ApiMetrics(SafeMeters meters) {
        this.meters = meters;
    }

    /** Records the request once; later calls for the same request do nothing. */
    void record(HttpServletRequest request, int status, long startNanos) {
        try {
            if (request.getAttribute(RECORDED) != null) {
                return;
            }
            request.setAttribute(RECORDED, Boolean.TRUE);
            var tags = new LinkedHashMap<String, String>();
            tags.put("uri", uri(request, status));
            tags.put("method", request.getMethod());
            tags.put("status", Integer.toString(status));
            tags.put("outcome", outcome(status));
            meters.record(NAME, tags, System.nanoTime() - startNanos);
        } catch (RuntimeException e) {
            // The meters swallow their own failures; this guards the tag building.
        }
    }

    /** The URI template, never the raw path (bounded cardinality). */
    static String uri(HttpServletRequest request, int status) {
        var pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        var handler = request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
        if (status == 404 && (pattern == null || handler instanceof ResourceHttpRequestHandler)) {
            return "NOT_FOUND";
        }
        return pattern instanceof String s ? s : "UNKNOWN";
    }

    static String outcome(int status) {
        return switch (status / 100) {
            case 1 -> "INFORMATIONAL";
            case 2 -> "SUCCESS";
            case 3 -> "REDIRECTION";
            case 4 -> "CLIENT_ERROR";
            case 5 -> "SERVER_ERROR";
            default -> "UNKNOWN";
        };
    }
}
