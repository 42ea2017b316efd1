package io.changeflow.adapter.web.envelope;

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
 * The outermost filter of the web layer: gives every request a traceId (request attribute, {@code X-Trace-Id}
 * response header, log MDC key {@code traceId}) so a client can quote it and support can find the
 * log lines. With tracing (Boot's observation filter runs before this one and puts the request's span in scope),
 * it is the W3C trace id that tracing put into the MDC, continued from an incoming {@code traceparent}, so the
 * answer names the trace the request's durable steps join; without, a random one, whose MDC entry is removed
 * after the request. Latency and status of every request, whoever answers it (a filter, an interceptor, a
 * handler), are Boot's {@code http.server.requests}.
 */
public final class RequestTraceFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Trace-Id";
    static final String MDC_KEY = "traceId";

    private static final String ATTRIBUTE = RequestTraceFilter.class.getName() + ".traceId";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var traced = MDC.get(MDC_KEY);
        var traceId = traced == null || traced.isBlank()
                ? HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) : traced;
        request.setAttribute(ATTRIBUTE, traceId);
        response.setHeader(HEADER, traceId);
        MDC.put(MDC_KEY, traceId);
        try {
            chain.doFilter(request, response);
        } finally {
            if (traceId.equals(traced)) {
                MDC.put(MDC_KEY, traced); // tracing's own entry: tracing removes it when the span leaves scope
            } else {
                MDC.remove(MDC_KEY);
            }
        }
    }

    /** The traceId of {@code request} (also valid in the error dispatch, after the MDC was cleared). */
    public static String traceId(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof String id ? id : currentTraceId();
    }

    /** The traceId of the request being handled on this thread, or null outside a request. */
    static String currentTraceId() {
        return MDC.get(MDC_KEY);
    }
}
