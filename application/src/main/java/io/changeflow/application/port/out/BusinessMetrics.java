package io.changeflow.application.port.out;

import io.changeflow.domain.state.StepStatus;
import java.time.Duration;

/**
 * Business outcome metrics. Implementations never throw and never change an outcome: callers emit
 * only after the transaction committed and only when their call flipped the state.
 */
public interface BusinessMetrics {

    /** A request was accepted. */
    void submitted(String target);

    /** A request reached "in effect" (counted exactly once per operation). */
    void validated(String target);

    /** A request stopped at a failure step. */
    void failed(StepStatus step);

    /** A batch hand-off completed (recorded after it, outside failure handling). */
    void batchCompleted(int size, Duration duration, boolean merged);

    /** A notification was delivered on {@code channel} ({@code MAIL}, {@code WEBHOOK}). */
    default void notificationSent(String channel) {
    }

    /** A notification attempt failed on {@code channel}; it is retried later. */
    default void notificationFailed(String channel) {
    }
}
