package io.changeflow.domain.state;

/**
 * What an operation changes in its target's grant file. Fixed when the operation is opened and stored with it;
 * the {@link Transitions transition table} reads it where the kinds differ (where a change ends, what an operator
 * may do to it).
 */
public enum ChangeKind {
    /** Adds (or rewrites, for a renewal) the subject's line: approved, merged, confirmed in effect: VALIDATED. */
    GRANT,
    /**
     * Removes the line of a grant whose expiry passed (database clock): the removal round of the target's file merges
     * it (after the approver's decision on a target with {@code removals: approval}); confirmed in effect it ends
     * EXPIRED (re-appliable).
     */
    EXPIRY,
    /**
     * Removes the line because the subject (or the requester) gave the grant up, or an operator revoked it: the
     * removal round of the target's file merges it (an operator's revocation after the approver's decision on a target
     * with {@code removals: approval}; a give-up never asks); confirmed in effect it ends REVOKED (re-appliable).
     */
    REVOCATION;

    /** True for the kinds that take a line out of the file. */
    public boolean removes() {
        return this != GRANT;
    }
}
