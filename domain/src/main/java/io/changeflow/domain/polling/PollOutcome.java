package io.changeflow.domain.polling;

/** How waiting on an external process ended. */
public enum PollOutcome {
    /** It passed. */
    PASSED,
    /** It failed: deterministic, the same input fails again. */
    FAILED,
    /** We stopped waiting: the outcome is unknown, not a failure. */
    TIMED_OUT
}
