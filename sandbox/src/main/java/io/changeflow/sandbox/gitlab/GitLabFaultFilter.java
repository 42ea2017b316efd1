package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.fault.Faults;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Fault injection for every call to the simulated GitLab REST API: asks {@link Faults#planIncoming} with
 * {@link Faults#GITLAB}, then delays, fails without applying, or applies and answers 504 as if the response
 * had been lost on the way back.
 */
final class GitLabFaultFilter extends OncePerRequestFilter {

    private final Faults faults;

    GitLabFaultFilter(Faults faults) {
        this.faults = faults;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        var path = request.getRequestURI().substring(request.getContextPath().length());
        return !path.startsWith(GitLabApiController.PREFIX + "/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var plan = faults.planIncoming(Faults.GITLAB);
        if (plan.delayMillis() > 0) {
            try {
                // Deliberate: this is the simulated latency of GitLab, so that callers' timeouts are exercised.
                Thread.sleep(plan.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (plan.fails()) {
            write(response, plan.failStatus(), plan.failStatus() == 503 ? "503 Service Unavailable"
                    : plan.failStatus() + " Internal Server Error");
            return;
        }
        if (plan.loseResponse()) {
            var applied = new ContentCachingResponseWrapper(response);
            chain.doFilter(request, applied);
            // The call was applied; its answer is thrown away as a gateway would after a lost upstream response.
            response.reset();
            write(response, 504, "504 Gateway Timeout");
            return;
        }
        chain.doFilter(request, response);
    }

    private static void write(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        var body = ("{\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
