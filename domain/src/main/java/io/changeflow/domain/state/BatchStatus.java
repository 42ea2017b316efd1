package io.changeflow.domain.state;

import java.util.Arrays;
import java.util.Optional;

/**
 * State of a merge batch. Active batches (RUNNING, BLOCKED) hold their partition's single active
 * slot (invariant I1); terminal ones release it by the same write that ends them.
 */
public enum BatchStatus {

    /** Claimed its members and is creating, approving or merging the batch merge request. */
    RUNNING(1),
    /** Merged: every member's change is in. */
    SUCCEEDED(2),
    /** Ended without merging; its members were requeued, split or failed. */
    FAILED(3),
    /** Stopped with an unknown outcome (e.g. pipeline timeout); holds the slot until an operator settles it. */
    BLOCKED(4);

    private final int code;

    BatchStatus(int code) {
        this.code = code;
    }

    /** The persisted numeric code (the generated slot column tests {@code status IN (1, 4)}). */
    public int code() {
        return code;
    }

    /** Holds the active slot. */
    public boolean isActive() {
        return this == RUNNING || this == BLOCKED;
    }

    public boolean isTerminal() {
        return !isActive();
    }

    public static Optional<BatchStatus> fromCode(int code) {
        return Arrays.stream(values()).filter(s -> s.code == code).findFirst();
    }
}
