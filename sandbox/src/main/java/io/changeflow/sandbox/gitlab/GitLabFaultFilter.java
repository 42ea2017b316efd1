package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.fault.Faults;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Fault injection for every call to the simulated GitLab REST API: asks {@link Faults#planIncoming} with
 * {@link Faults#GITLAB}, then delays, fails without applying, or applies and answers 504 as if the response
 * had been lost on the way back.
 */
final class GitLabFaultFilter extends GitLabApiFilter {

    private final Faults faults;

    GitLabFaultFilter(Faults faults) {
        this.faults = faults;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var plan = faults.planIncoming(Faults.GITLAB);
        if (!plan.awaitDelay()) {
            return;
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
        answer(response, status, "application/json", "{\"message\":\"" + message + "\"}");
    }
}
