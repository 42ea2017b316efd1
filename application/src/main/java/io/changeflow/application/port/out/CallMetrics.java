package io.changeflow.application.port.out;

import java.time.Duration;

/**
 * Where the adapters of external systems report each call they made: the system, the operation (a fixed name of
 * the adapter's code, never a value from a request) and how it ended. Implementations never throw into the call.
 */
public interface CallMetrics {

    /** Reports nothing: an adapter without metrics. */
    CallMetrics NONE = (system, operation, outcome, took) -> { };

    /**
     * @param system    e.g. {@code gitlab}, {@code approval}
     * @param operation e.g. {@code merge}, {@code submit}
     * @param took      from the start of the call (or try) to its end
     */
    void called(String system, String operation, CallOutcome outcome, Duration took);
}
