package io.changeflow.adapter.gitlab;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the GitLab adapter ({@code changeflow.gitlab.*}). Every setting has a safe, finite default;
 * a missing, zero or negative duration falls back to its default, so no call can ever wait forever.
 * The defaults point at the sandbox's GitLab simulator and its bot accounts.
 *
 * @param baseUrl          GitLab's address without {@code /api/v4}, e.g. {@code https://gitlab.example.com};
 *                         read again on every call (see {@link GitLabConfiguration})
 * @param author           the bot that creates branches, commits and merge requests (and reads)
 * @param approvers        the approval bots; {@code MergeRequests.approve} names one by its account
 * @param connectTimeout   TCP connect timeout of every call (default 2 s)
 * @param readTimeout      socket read timeout of every call (default 10 s)
 * @param callTimeout      hard limit of one call including retries inside the client (resilience4j
 *                         TimeLimiter; default 15 s)
 * @param checkItemsTtl    how long a project's approval check items are cached (default 10 min; a 422 that
 *                         carries the items in effect refreshes them earlier)
 * @param circuitBreaker   the circuit breaker of all GitLab calls
 */
@ConfigurationProperties("changeflow.gitlab")
record GitLabProperties(String baseUrl, Bot author, List<Bot> approvers, Duration connectTimeout,
                        Duration readTimeout, Duration callTimeout, Duration checkItemsTtl, CircuitBreaker circuitBreaker) {

    /** A bot account: the username GitLab shows and its personal access token (never logged). */
    record Bot(String account, String token) {

        Bot {
            if (account == null || account.isBlank()) {
                throw new IllegalArgumentException("a GitLab bot needs an account name");
            }
            token = token == null ? "" : token;
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
     * @param slidingWindowSize          number of recent calls looked at (default 10)
     * @param minimumNumberOfCalls       calls needed before the rate is judged (default 5)
     * @param waitDurationInOpenState    how long the breaker stays open before it lets probe calls through
     *                                   (default 30 s; then half open, automatically)
     * @param permittedCallsInHalfOpenState probe calls while half open (default 2)
     */
    record CircuitBreaker(Float failureRateThreshold, Integer slidingWindowSize, Integer minimumNumberOfCalls,
                   Duration waitDurationInOpenState, Integer permittedCallsInHalfOpenState) {

        CircuitBreaker {
            failureRateThreshold = failureRateThreshold == null || failureRateThreshold <= 0
                    || failureRateThreshold > 100 ? 50f : failureRateThreshold;
            slidingWindowSize = positive(slidingWindowSize, 10);
            minimumNumberOfCalls = positive(minimumNumberOfCalls, 5);
            waitDurationInOpenState = positive(waitDurationInOpenState, Duration.ofSeconds(30));
            permittedCallsInHalfOpenState = positive(permittedCallsInHalfOpenState, 2);
        }
    }

    static final String DEFAULT_BASE_URL = "http://localhost:8080/sim/gitlab";

    GitLabProperties {
        baseUrl = normalizeBaseUrl(baseUrl);
        author = author == null ? new Bot("changeflow-bot", "author-bot-token") : author;
        approvers = approvers == null || approvers.isEmpty()
                ? List.of(new Bot("approval-bot-1", "approval-bot-1-token"),
                          new Bot("approval-bot-2", "approval-bot-2-token"))
                : List.copyOf(approvers);
        connectTimeout = positive(connectTimeout, Duration.ofSeconds(2));
        readTimeout = positive(readTimeout, Duration.ofSeconds(10));
        callTimeout = positive(callTimeout, Duration.ofSeconds(15));
        checkItemsTtl = positive(checkItemsTtl, Duration.ofMinutes(10));
        circuitBreaker = circuitBreaker == null ? new CircuitBreaker(null, null, null, null, null) : circuitBreaker;
    }

    static GitLabProperties defaults() {
        return new GitLabProperties(null, null, null, null, null, null, null, null);
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

    /** Blank: the default; otherwise trimmed, without trailing slashes. */
    static String normalizeBaseUrl(String url) {
        if (url == null || url.isBlank()) {
            return DEFAULT_BASE_URL;
        }
        url = url.trim();
        var end = url.length();
        while (end > 0 && url.charAt(end - 1) == '/') {
            end--;
        }
        return url.substring(0, end);
    }
}
