package io.changeflow.adapter.gitlab;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The GitLab reads of previews ({@code changeflow.gitlab.preview.*}): a call timeout, a bulkhead and a
 * circuit breaker of their own, apart from the workflow's. Missing, zero, negative or out-of-range values take
 * the defaults (never unbounded).
 *
 * @param callTimeout    the deadline of one preview read (default 5 s; the HTTP connect and read timeouts are the
 *                       workflow's, {@code changeflow.gitlab.connect-timeout} and {@code read-timeout})
 * @param maxConcurrent  the preview reads in flight at once on this instance (default 4); one more is refused at once
 * @param circuitBreaker the preview breaker (same keys and defaults as {@code changeflow.gitlab.circuit-breaker.*})
 */
@ConfigurationProperties("changeflow.gitlab.preview")
record GitLabPreviewProperties(Duration callTimeout, Integer maxConcurrent, GitLabProperties.CircuitBreaker circuitBreaker) {

    GitLabPreviewProperties {
        callTimeout = callTimeout == null || callTimeout.isNegative() || callTimeout.isZero() ? Duration.ofSeconds(5) : callTimeout;
        maxConcurrent = maxConcurrent == null || maxConcurrent < 1 ? 4 : maxConcurrent;
        circuitBreaker = circuitBreaker == null ? new GitLabProperties.CircuitBreaker(null, null, null, null, null) : circuitBreaker;
    }
}
