package io.changeflow.adapter.gitlab;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the GitLab adapter ({@code changeflow.gitlab.*}). Every timing has a safe, finite default;
 * a missing, zero or negative duration falls back to its default, so no call can ever wait forever.
 * Where GitLab is and who the bots are has no default: they are empty until configured (the sandbox's
 * defaults point them at its GitLab simulator). Without a base URL or an author token every call fails
 * at once and health {@code gitlab} is DOWN; without approval bots the workflow merges nothing.
 *
 * @param baseUrl          GitLab's address without {@code /api/v4}, e.g. {@code https://gitlab.example.com};
 *                         read again on every call (see {@link GitLabConfiguration}); empty when not set
 * @param author           the bot that creates branches, commits and merge requests (and reads); account
 *                         and token empty when not set
 * @param approvers        the approval bots ({@code changeflow.gitlab.approvers[n].account}, {@code .token});
 *                         {@code MergeRequests.approve} names one by its account; empty when not set
 * @param connectTimeout   TCP connect timeout of every call (default 2 s)
 * @param readTimeout      socket read timeout of every call (default 10 s)
 * @param callTimeout      hard limit of one call including retries inside the client (resilience4j
 *                         TimeLimiter; default 15 s)
 * @param checkItemsTtl    how long a project's approval check items are cached (default 10 min; a 422 that
 *                         carries the items in effect refreshes them earlier)
 * @param circuitBreaker   the circuit breaker of all GitLab calls
 * @param readRetries      how often an idempotent read (merge request, pipelines, approvals, files, branches,
 *                         project) that failed transiently is tried again before the failure surfaces (default
 *                         2; 0 turns it off; a negative value falls back to the default). Writes are never retried
 *                         here: the workflow reads remote state before it repeats one
 * @param readRetryBackoff the pause before the first such retry, doubled before each further one (default 200 ms)
 * @param maxCallsPerMinute the GitLab calls all instances together may make per minute, counted in the shared
 *                         database (default: unlimited); text as configured: a missing, blank, garbled, zero or
 *                         negative value means unlimited (read with {@link #callBudgetPerMinute()})
 * @param rateLimitReserve the calls a bot keeps in hand of GitLab's rate limit: once an answer's
 *                         {@code RateLimit-Remaining} is at or below it, no call is made until {@code RateLimit-Reset}
 *                         (default 5; {@code 0} turns it off: only 429s are honoured); text as configured: missing,
 *                         blank, garbled or negative is the default (read with {@link #rateLimitReserveCalls()})
 * @param projectCacheTtl  how long a project's default branch read by the workflow is served again without a call
 *                         (issue 33 item 3, {@link GitLabProjects}; default 1 min; 0: off, every use reads; missing or
 *                         negative: the default). The read before a merge is never served from it
 */
@ConfigurationProperties("changeflow.gitlab")
record GitLabProperties(String baseUrl, Bot author, List<Bot> approvers, Duration connectTimeout,
                        Duration readTimeout, Duration callTimeout, Duration checkItemsTtl, CircuitBreaker circuitBreaker,
                        Integer readRetries, Duration readRetryBackoff, String maxCallsPerMinute,
                        String rateLimitReserve, Duration projectCacheTtl) {

    /** A bot account: the username GitLab shows and its personal access token (never logged); empty when not set. */
    record Bot(String account, String token) {

        /** No bot configured. */
        static final Bot NONE = new Bot("", "");

        Bot {
            account = account == null ? "" : account.strip();
            token = token == null ? "" : token.strip();
        }

        /** Whether a token is set: without one GitLab answers nothing but 401. */
        boolean hasToken() {
            return !token.isEmpty();
        }

        @Override
        public String toString() {
            return "Bot[" + account + "]";
        }
    }

    /**
     * Circuit breaker settings; only failures that say nothing about the request (timeouts, broken
     * connections, 5xx, 429) count, never GitLab's 4xx answers.
     *
     * @param failureRateThreshold       percentage of failed calls that opens the breaker (default 50)
     * @param slidingWindowSize          number of recent calls looked at (default 50: judged on 10 calls, a
     *                                   GitLab failing one call in five at random opens it about once in 30
     *                                   windows, and every step then fails at once; on 50 calls that takes
     *                                   a streak more than five standard deviations away)
     * @param minimumNumberOfCalls       calls needed before the rate is judged (default 20)
     * @param waitDurationInOpenState    how long the breaker stays open before it lets probe calls through
     *                                   (default 30 s; then half open, automatically)
     * @param permittedCallsInHalfOpenState probe calls while half open (default 2)
     */
    record CircuitBreaker(Float failureRateThreshold, Integer slidingWindowSize, Integer minimumNumberOfCalls,
                   Duration waitDurationInOpenState, Integer permittedCallsInHalfOpenState) {

        CircuitBreaker {
            failureRateThreshold = failureRateThreshold == null || failureRateThreshold <= 0
                    || failureRateThreshold > 100 ? 50f : failureRateThreshold;
            slidingWindowSize = positive(slidingWindowSize, 50);
            minimumNumberOfCalls = positive(minimumNumberOfCalls, 20);
            waitDurationInOpenState = positive(waitDurationInOpenState, Duration.ofSeconds(30));
            permittedCallsInHalfOpenState = positive(permittedCallsInHalfOpenState, 2);
        }
    }

    GitLabProperties {
        baseUrl = normalizeBaseUrl(baseUrl);
        author = author == null ? Bot.NONE : author;
        approvers = approvers == null ? List.of() : List.copyOf(approvers);
        for (var i = 0; i < approvers.size(); i++) {
            if (approvers.get(i).account().isEmpty()) {
                throw new IllegalArgumentException("a GitLab approval bot needs an account name (changeflow.gitlab.approvers["
                        + i + "].account)");
            }
        }
        connectTimeout = positive(connectTimeout, Duration.ofSeconds(2));
        readTimeout = positive(readTimeout, Duration.ofSeconds(10));
        callTimeout = positive(callTimeout, Duration.ofSeconds(15));
        checkItemsTtl = positive(checkItemsTtl, Duration.ofMinutes(10));
        circuitBreaker = circuitBreaker == null ? new CircuitBreaker(null, null, null, null, null) : circuitBreaker;
        readRetries = readRetries == null || readRetries < 0 ? 2 : readRetries;
        readRetryBackoff = positive(readRetryBackoff, Duration.ofMillis(200));
        maxCallsPerMinute = maxCallsPerMinute == null ? "" : maxCallsPerMinute.strip();
        rateLimitReserve = rateLimitReserve == null ? "" : rateLimitReserve.strip();
        projectCacheTtl = projectCacheTtl == null || projectCacheTtl.isNegative() ? DEFAULT_PROJECT_CACHE_TTL : projectCacheTtl;
    }

    /** How long a project's default branch is served from the cache when not configured. */
    static final Duration DEFAULT_PROJECT_CACHE_TTL = Duration.ofMinutes(1);

    /** The calls held back of GitLab's rate limit; missing, blank, garbled or negative: 5; 0: off. */
    int rateLimitReserveCalls() {
        try {
            var calls = Integer.parseInt(rateLimitReserve);
            return calls < 0 ? DEFAULT_RATE_LIMIT_RESERVE : calls;
        } catch (NumberFormatException blankOrGarbled) {
            return DEFAULT_RATE_LIMIT_RESERVE;
        }
    }

    static final int DEFAULT_RATE_LIMIT_RESERVE = 5;

    static GitLabProperties defaults() {
        return new GitLabProperties(null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** {@code changeflow.gitlab.max-calls-per-minute}: the shared call budget, 0 for unlimited (also for bad input). */
    int callBudgetPerMinute() {
        try {
            return Math.max(0, Integer.parseInt(maxCallsPerMinute));
        } catch (NumberFormatException blankOrGarbled) {
            return 0;
        }
    }

    /** The base URL without user info, query or fragment: safe to show in health details. */
    String safeBaseUrl() {
        return safe(baseUrl);
    }

    /** {@code url} without user info, query or fragment. */
    static String safe(String url) {
        try {
            var uri = URI.create(url);
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (IllegalArgumentException | java.net.URISyntaxException e) {
            return "(unparsable)";
        }
    }

    /** Whole milliseconds, at least 1, at most Integer.MAX_VALUE (what the HTTP client takes). */
    static int millis(Duration duration) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, duration.toMillis()));
    }

    private static Duration positive(Duration value, Duration fallback) {
        return value == null || value.isZero() || value.isNegative() ? fallback : value;
    }

    private static Integer positive(Integer value, int fallback) {
        return value == null || value <= 0 ? fallback : value;
    }

    /** Blank: empty (not set); otherwise trimmed, without trailing slashes. */
    static String normalizeBaseUrl(String url) {
        if (url == null || url.isBlank()) {
            return "";
        }
        url = url.trim();
        var end = url.length();
        while (end > 0 && url.charAt(end - 1) == '/') {
            end--;
        }
        return url.substring(0, end);
    }
}
