package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import jakarta.ws.rs.client.ClientResponseFilter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.gitlab4j.api.GitLabApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GitLab's {@code RateLimit-*} headers read on every answer, to slow down before a 429 (issue 35). GitLab's rate
 * limiter (Rack::Attack, lib/gitlab/rack_attack.rb; doc/administration/settings/user_and_ip_rate_limits.md) counts per
 * user; where it sends the headers on answers it admitted too (the feature flag
 * {@code rate_limiting_headers_for_unthrottled_requests}, spec/requests/rack_attack_headers_spec.rb, read at 19.1-pre),
 * {@code RateLimit-Remaining} says how many calls the bot has left until {@code RateLimit-Reset} (a Unix time). Once
 * an answer to a bot says {@code changeflow.gitlab.rate-limit-reserve} or fewer are left, no call is made until that
 * reset: each fails at once as the port's transient {@link Kind#RATE_LIMITED} carrying the wait, so the step runs again
 * after it (as with the shared call budget, {@link GitLabBudget}): the reserve stays for the people using the same
 * GitLab. A later answer with more left lifts it. A 429 is not read here: it carries its own wait
 * ({@link RateLimitAnswer}). Answers without the headers (older GitLab, no limit set) change nothing.
 */
final class GitLabRateLimitHeaders {

    /** Reads nothing, holds nothing back. */
    static final GitLabRateLimitHeaders NONE = new GitLabRateLimitHeaders(0, Clock.systemUTC());

    private static final Logger LOG = LoggerFactory.getLogger(GitLabRateLimitHeaders.class);

    private final int reserve;
    private final Clock clock;
    /** Per bot (its token, never logged): until when its budget is at or below the reserve. */
    private final Map<String, Instant> lowUntil = new ConcurrentHashMap<>();

    /** @param reserve the calls left at which the adapter stops until the reset; 0 or less: never */
    GitLabRateLimitHeaders(int reserve, Clock clock) {
        this.reserve = Math.max(0, reserve);
        this.clock = clock;
    }

    /** Reads every answer of {@code api} (a Jersey response filter on its client). */
    GitLabApi readingAnswersOf(GitLabApi api) {
        if (reserve == 0) {
            return api;
        }
        ClientResponseFilter filter = (request, response) -> observe(
                Optional.ofNullable(request.getHeaderString("PRIVATE-TOKEN")).orElse(String.valueOf(request.getHeaderString("Authorization"))),
                response.getStatus(), response::getHeaderString);
        if (!TraceHeaders.register(api, filter)) {
            LOG.warn("GitLab's RateLimit-* headers are not read from gitlab4j's answers: its client configuration cannot be reached");
        }
        return api;
    }

    /**
     * One answer to the bot with {@code token}: its {@code RateLimit-Remaining} (absent or garbled: nothing changes)
     * and {@code RateLimit-Reset} (absent or garbled: a minute, GitLab's normalised period).
     */
    void observe(String token, int status, Function<String, String> header) {
        if (reserve == 0 || status == 429) {
            return;
        }
        var remaining = number(header.apply("RateLimit-Remaining"));
        if (remaining.isEmpty()) {
            return;
        }
        if (remaining.get() > reserve) {
            lowUntil.remove(token);
            return;
        }
        var now = clock.instant();
        var reset = number(header.apply("RateLimit-Reset")).map(Instant::ofEpochSecond).filter(now::isBefore)
                .orElse(now.plus(RateLimitAnswer.DEFAULT_WAIT));
        lowUntil.put(token, reset);
    }

    /** Before a call: throws RATE_LIMITED with the wait while a bot's budget is at or below the reserve. */
    void take(String operation) {
        if (lowUntil.isEmpty()) {
            return;
        }
        var now = clock.instant();
        lowUntil.values().removeIf(until -> !until.isAfter(now));
        lowUntil.values().stream().max(Instant::compareTo).ifPresent(until -> {
            var wait = Duration.between(now, until);
            throw new ExternalCallException(GitLabCalls.SYSTEM, Kind.RATE_LIMITED, 0, operation + ": GitLab's rate limit"
                    + " leaves a bot " + reserve + " calls or fewer (RateLimit-Remaining), kept for people; the call was"
                    + " not made, the limit resets in " + wait, null, wait);
        });
    }

    private static Optional<Long> number(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(value.trim()));
        } catch (NumberFormatException garbled) {
            return Optional.empty();
        }
    }
}
