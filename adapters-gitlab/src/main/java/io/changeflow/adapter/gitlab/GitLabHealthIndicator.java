package io.changeflow.adapter.gitlab;

import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * GitLab's health as the adapter experiences it, without calling GitLab: DOWN while the adapter is not
 * configured (detail {@code reason} names the missing setting, e.g. "changeflow.gitlab.base-url is not
 * set") or the circuit breaker is open, UP otherwise, with the breaker's state and numbers and the kind
 * of the last failure (TIMEOUT, IO, a status). Shows the base URL without user info; never a token or a
 * response body.
 */
final class GitLabHealthIndicator implements HealthIndicator {

    private final GitLabCalls calls;
    private final Supplier<String> baseUrl;
    private final Supplier<Optional<String>> notConfigured;

    GitLabHealthIndicator(GitLabCalls calls, Supplier<String> baseUrl, Supplier<Optional<String>> notConfigured) {
        this.calls = calls;
        this.baseUrl = baseUrl;
        this.notConfigured = notConfigured;
    }

    @Override
    public Health health() {
        var missing = notConfigured.get();
        if (missing.isPresent()) {
            var url = baseUrl.get();
            return Health.down()
                    .withDetail("reason", missing.get())
                    .withDetail("baseUrl", url.isEmpty() ? "(not set)" : GitLabProperties.safe(url))
                    .build();
        }
        var breaker = calls.breaker();
        var state = breaker.getState();
        var health = switch (state) {
            case OPEN, FORCED_OPEN -> Health.down();
            default -> Health.up();
        };
        var metrics = breaker.getMetrics();
        health.withDetail("baseUrl", GitLabProperties.safe(baseUrl.get()))
                .withDetail("circuitBreaker", state.name())
                .withDetail("failureRate", metrics.getFailureRate())
                .withDetail("bufferedCalls", metrics.getNumberOfBufferedCalls())
                .withDetail("failedCalls", metrics.getNumberOfFailedCalls())
                .withDetail("notPermittedCalls", metrics.getNumberOfNotPermittedCalls());
        var last = calls.lastFailure();
        if (last != null) {
            health.withDetail("lastFailure", last.kind() + (last.status() > 0 ? " " + last.status() : "")
                    + " in " + last.operation() + " at " + last.at());
        }
        return health.build();
    }
}
