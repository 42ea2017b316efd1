package io.changeflow.adapter.approval;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health "approval": DOWN while the circuit breaker is open (calls are refused without being
 * made) or when no base URL is configured; details show the breaker's state and counts, as
 * {@link ApprovalSystemHealth} reads them for the operations overview.
 */
final class ApprovalHealthIndicator implements HealthIndicator {

    private static final Set<String> OPEN = Set.of(CircuitBreaker.State.OPEN.name(), CircuitBreaker.State.FORCED_OPEN.name());

    private final HttpApprovals approvals;
    private final ApprovalSystemHealth breaker;

    ApprovalHealthIndicator(HttpApprovals approvals) {
        this.approvals = approvals;
        this.breaker = new ApprovalSystemHealth(approvals);
    }

    @Override
    public Health health() {
        var status = breaker.status();
        var configured = approvals.baseUrlConfigured();
        var builder = OPEN.contains(status.breaker()) || !configured ? Health.down() : Health.up();
        return builder
                .withDetail("circuitBreaker", status.breaker())
                .withDetail("baseUrlConfigured", configured)
                // -1 while the breaker has too few calls to tell, as resilience4j reports it
                .withDetail("failureRate", status.errorRatePercent().map(Double::floatValue).orElse(-1f))
                .withDetail("bufferedCalls", status.recentCalls())
                .withDetail("failedCalls", status.recentFailures())
                .withDetail("notPermittedCalls", status.notPermittedCalls())
                .build();
    }
}
