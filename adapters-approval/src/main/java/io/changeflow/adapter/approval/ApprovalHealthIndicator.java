package io.changeflow.adapter.approval;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health "approval": DOWN while the circuit breaker is open (calls are refused without being
 * made) or when no base URL is configured; details show the breaker's state and counts.
 */
final class ApprovalHealthIndicator implements HealthIndicator {

    private final HttpApprovals approvals;

    ApprovalHealthIndicator(HttpApprovals approvals) {
        this.approvals = approvals;
    }

    @Override
    public Health health() {
        var breaker = approvals.circuitBreaker();
        var state = breaker.getState();
        var metrics = breaker.getMetrics();
        var open = state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
        var configured = approvals.baseUrlConfigured();
        var builder = open || !configured ? Health.down() : Health.up();
        return builder
                .withDetail("circuitBreaker", state.name())
                .withDetail("baseUrlConfigured", configured)
                .withDetail("failureRate", metrics.getFailureRate())
                .withDetail("bufferedCalls", metrics.getNumberOfBufferedCalls())
                .withDetail("failedCalls", metrics.getNumberOfFailedCalls())
                .withDetail("notPermittedCalls", metrics.getNumberOfNotPermittedCalls())
                .build();
    }
}
