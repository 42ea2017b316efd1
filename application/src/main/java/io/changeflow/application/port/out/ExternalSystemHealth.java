package io.changeflow.application.port.out;

import java.util.Objects;
import java.util.Optional;

/**
 * What this instance knows about an external system it calls, without calling it: its circuit breaker and the
 * share of recent calls that failed (the breaker's sliding window). Each instance has breakers of its own, so
 * the answer is this instance's view. One implementation per called system (GitLab, the approval system).
 */
public interface ExternalSystemHealth {

    /**
     * @param system             {@code gitlab} or {@code approval}
     * @param breaker            CLOSED, OPEN, HALF_OPEN, FORCED_OPEN, DISABLED or METRICS_ONLY
     * @param errorRatePercent   failed calls in the breaker's window, in percent; empty until the window holds
     *                           its minimum number of calls
     * @param recentCalls        calls in the breaker's window
     * @param recentFailures     failed calls among them
     * @param notPermittedCalls  calls refused without being made because the breaker was open
     */
    record Status(String system, String breaker, Optional<Double> errorRatePercent, int recentCalls, int recentFailures,
                  long notPermittedCalls) {
        public Status {
            Objects.requireNonNull(system, "system");
            Objects.requireNonNull(breaker, "breaker");
            Objects.requireNonNull(errorRatePercent, "errorRatePercent");
        }
    }

    /** The current status; never calls the system, never throws. */
    Status status();
}
