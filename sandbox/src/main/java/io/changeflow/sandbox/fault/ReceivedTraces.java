package io.changeflow.sandbox.fault;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Remembers the W3C {@code traceparent} of the last {@value #KEPT} calls the simulated systems received
 * ({@code /sim/**}), so an operator (or a test) can check that the service's calls join a request's trace, as a
 * real GitLab or approval system would show it in its own tracing. Only the method, the path (no query, no body)
 * and the trace header are kept; the simulators answer exactly as before.
 */
public final class ReceivedTraces extends OncePerRequestFilter {

    /** A call received: when, which system ({@code gitlab}, {@code approval}, ...), method, path and trace. */
    public record Received(Instant at, String system, String method, String path, String traceId, String traceparent) {}

    static final int KEPT = 2_000;
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

    private final Deque<Received> received = new ArrayDeque<>();

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !path(request).startsWith("/sim/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var header = request.getHeader("traceparent");
        var matcher = header == null ? null : TRACEPARENT.matcher(header.trim());
        var traceId = matcher != null && matcher.matches() ? matcher.group(1) : null;
        var path = path(request);
        var system = path.substring("/sim/".length()).split("/", 2)[0];
        synchronized (received) {
            if (received.size() == KEPT) {
                received.removeFirst();
            }
            received.addLast(new Received(Instant.now(), system, request.getMethod(), path, traceId, header));
        }
        chain.doFilter(request, response);
    }

    /** The calls received in the trace {@code traceId}, oldest first. */
    public List<Received> inTrace(String traceId) {
        synchronized (received) {
            return received.stream().filter(r -> traceId.equals(r.traceId())).toList();
        }
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}
