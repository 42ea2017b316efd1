package io.changeflow.adapter.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Interceptor 3 of 4: API latency and status metrics for every endpoint (user, callbacks, ops,
 * legacy and static assets alike), through {@link ApiMetrics}.
 *
 * <p>Failure behaviour: observability never interferes. {@code preHandle} always returns
 * {@code true} and never writes a response; both callbacks catch their own exceptions, and the
 * meters swallow registry failures, so a throwing metrics library changes no answer. Requests
 * rejected by interceptors 1 and 2 never reach this one; {@link RequestTraceFilter} records them.
 */
final class ApiMetricsInterceptor implements HandlerInterceptor {

    private static final String START = ApiMetricsInterceptor.class.getName() + ".start";

    private final ApiMetrics apiMetrics;

    ApiMetricsInterceptor(ApiMetrics apiMetrics) {
        this.apiMetrics = apiMetrics;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        try {
            if (request.getDispatcherType() == DispatcherType.REQUEST) {
                request.setAttribute(START, System.nanoTime());
            }
        } catch (RuntimeException e) {
            // Metrics never decide anything: carry on.
        }
        return true;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        try {
            if (request.getAttribute(START) instanceof Long start) {
                // An exception reaching afterCompletion was not resolved: the container answers 500.
                apiMetrics.record(request, ex == null ? response.getStatus() : 500, start);
            }
        } catch (RuntimeException e) {
            // Metrics never decide anything: carry on.
        }
    }
}
