package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.ExternalSystemHealth;
import java.util.Optional;

/** The approval system's {@link ExternalSystemHealth}: the {@code approval} breaker of this instance. */
final class ApprovalSystemHealth implements ExternalSystemHealth {

    static final String SYSTEM = "approval";

    private final HttpApprovals approvals;

    ApprovalSystemHealth(HttpApprovals approvals) {
        this.approvals = approvals;
    }

    @Override
    public Status status() {
        var breaker = approvals.circuitBreaker();
        var metrics = breaker.getMetrics();
        var rate = metrics.getFailureRate();
        return new Status(SYSTEM, breaker.getState().name(), rate < 0 ? Optional.empty() : Optional.of((double) rate),
                metrics.getNumberOfBufferedCalls(), metrics.getNumberOfFailedCalls(), metrics.getNumberOfNotPermittedCalls());
    }
}
