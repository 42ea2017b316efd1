package io.changeflow.sandbox.gitlab;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A filter over the calls to the simulated GitLab REST API (under {@link GitLabApiController#PREFIX}) only: the
 * control API and the web pages pass untouched, and so does every call while {@link #active()} is false.
 */
abstract class GitLabApiFilter extends OncePerRequestFilter {

    /** Whether the filter does anything now; true unless a subclass says otherwise. */
    protected boolean active() {
        return true;
    }

    @Override
    protected final boolean shouldNotFilter(HttpServletRequest request) {
        var path = request.getRequestURI().substring(request.getContextPath().length());
        return !active() || !path.startsWith(GitLabApiController.PREFIX + "/");
    }

    /** Answers {@code status} with {@code body} as the whole response. */
    static void answer(HttpServletResponse response, int status, String contentType, String body) throws IOException {
        response.setStatus(status);
        response.setContentType(contentType);
        var bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
