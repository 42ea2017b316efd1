package io.changeflow.sandbox.gitlab;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Answers calls to the simulated REST API over {@link GitLabRateLimit} with 429, as GitLab's rate limiter
 * (Rack::Attack) does: a plain-text "Retry later" body with {@code Retry-After} and the {@code RateLimit-*}
 * headers; where {@link GitLabRateLimit#setHeadersOnEveryAnswer} is on, every admitted answer carries the budget too. Accounts are told apart by their token; the control API is never limited.
 */
final class GitLabRateLimitFilter extends GitLabApiFilter {

    private final GitLabRateLimit limit;

    GitLabRateLimitFilter(GitLabRateLimit limit) {
        this.limit = limit;
    }

    @Override
    protected boolean active() {
        return limit.perMinute() > 0;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var token = request.getHeader("PRIVATE-TOKEN");
        var account = token != null ? token : String.valueOf(request.getHeader("Authorization"));
        var refusal = limit.admit(account);
        if (refusal.isEmpty()) {
            if (limit.headersOnEveryAnswer()) {
                // lib/gitlab/rack_attack.rb with rate_limiting_headers_for_unthrottled_requests: the budget on every answer
                limit.budget(account).ifPresent(budget -> {
                    response.setHeader("RateLimit-Name", "throttle_authenticated_api");
                    response.setHeader("RateLimit-Limit", String.valueOf(budget.limit()));
                    response.setHeader("RateLimit-Observed", String.valueOf(budget.observed()));
                    response.setHeader("RateLimit-Remaining", String.valueOf(budget.remaining()));
                    response.setHeader("RateLimit-Reset", String.valueOf(budget.resetAt().getEpochSecond() + 1));
                });
            }
            chain.doFilter(request, response);
            return;
        }
        var r = refusal.get();
        var seconds = Math.max(1, (r.retryAfter().toMillis() + 999) / 1000);
        response.setHeader("Retry-After", String.valueOf(seconds));
        response.setHeader("RateLimit-Name", "throttle_authenticated_api");
        response.setHeader("RateLimit-Limit", String.valueOf(r.limit()));
        response.setHeader("RateLimit-Observed", String.valueOf(r.observed()));
        response.setHeader("RateLimit-Remaining", "0");
        response.setHeader("RateLimit-Reset", String.valueOf(r.resetAt().getEpochSecond() + 1));
        response.setHeader("RateLimit-ResetTime",
                DateTimeFormatter.RFC_1123_DATE_TIME.format(r.resetAt().plusSeconds(1).atOffset(ZoneOffset.UTC)));
        answer(response, 429, "text/plain", "Retry later\n");
    }
}
