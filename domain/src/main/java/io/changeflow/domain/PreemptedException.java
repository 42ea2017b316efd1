package io.changeflow.domain;

/**
 * A guarded write found the row no longer in the state (or version) it was read in: someone else
 * changed it between the read and the write (invariant I6). The writer lost the race; the caller
 * re-reads and decides again, it never overwrites.
 */
public class PreemptedException extends ChangeflowException {

    public PreemptedException(String message) {
        super(message);
    }
}
