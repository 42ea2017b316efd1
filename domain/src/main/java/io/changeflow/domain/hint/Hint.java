package io.changeflow.domain.hint;

/** What the requester should do next, shown next to the status. */
public enum Hint {
    /** Nothing to do: the request is moving (or done). */
    NONE("Your request is being processed."),
    /** Stopped at a step that can recover on the same merge request: waiting helps. */
    KEEP_WAITING("Your request is waiting on a step that can recover; you can keep waiting."),
    /** Stopped at a deterministic external failure: waiting will not help. */
    CONTACT_MAINTAINERS("Your request stopped at a failure that waiting will not fix; please contact the maintainers."),
    /** Rejected or closed: a new request for the same subject and target is allowed. */
    CAN_REAPPLY("This request ended without taking effect; you can apply again.");

    private final String message;

    Hint(String message) {
        this.message = message;
    }

    /** Safe to show to a person. */
    public String message() {
        return message;
    }
}
