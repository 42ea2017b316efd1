package io.changeflow.domain.polling;

/** What one look at an external process (a pipeline, a rebase) saw. */
public enum PollObservation {
    /** Still running (or not started yet). */
    RUNNING,
    /** Finished successfully. */
    PASSED,
    /** Finished unsuccessfully. */
    FAILED
}
