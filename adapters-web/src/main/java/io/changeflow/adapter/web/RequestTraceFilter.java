package io.changeflow.adapter.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.MDC;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The outermost filter: gives every request a traceId (request attribute, {@code X-Trace-Id}
 * response header, log MDC key {@code traceId}) so a client can quote it and support can find the
 * log lines; and, when the request ends, records API metrics for requests the interceptor chain
 * never completed (see {@link ApiMetrics}). Failure behaviour: metrics cannot throw out of here;
 * the MDC entry is always removed.
 */
final class RequestTraceFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Trace-Id";
    static final String MDC_KEY = "traceId";

    private static final String ATTRIBUTE = RequestTraceFilter.class.getName() + ".traceId";

    private final ApiMetrics apiMetrics;

    RequestTraceFilter(ApiMetrics apiMetrics) {
        this.apiMetrics = apiMetrics;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var start = System.nanoTime();
        var traceId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        request.setAttribute(ATTRIBUTE, traceId);
        response.setHeader(HEADER, traceId);
        MDC.put(MDC_KEY, traceId);
        var failed = false;
        try {
            chain.doFilter(request, response);
        } catch (Throwable e) {
            failed = true;
            throw e;
        } finally {
            apiMetrics.record(request, failed ? 500 : response.getStatus(), start);
            MDC.remove(MDC_KEY);
        }
    }

    /** The traceId of {@code request} (also valid in the error dispatch, after the MDC was cleared). */
    static String traceId(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof String id ? id : currentTraceId();
    }

    /** The traceId of the request being handled on this thread, or null outside a request. */
    static String currentTraceId() {
        return MDC.get(MDC_KEY);
    }
}
