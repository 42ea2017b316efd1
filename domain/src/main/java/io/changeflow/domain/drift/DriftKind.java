package io.changeflow.domain.drift;

/**
 * What kind of disagreement between a target's grant file on main and the service's records a drift item is
 * (issue 36, docs/operations.md "Drift": what each means and what to do).
 */
public enum DriftKind {

    /**
     * A line nobody approved: its operation is unknown to the service, names another subject or target, or is a
     * request that never got an approval (a person merged its merge request before the approver decided, or it ended
     * rejected or closed while its line landed). Removed through the workflow on a target with {@code drift: remove}.
     */
    UNAPPROVED_LINE,
    /**
     * A line of a grant that ended: its removal was confirmed (EXPIRED, REVOKED) or a later grant replaced it, yet
     * the line is on main. Removed through the workflow on a target with {@code drift: remove}.
     */
    ENDED_GRANT_LINE,
    /**
     * A grant the service holds in effect (VALIDATED, or whose removal was not approved) has no line on main: the
     * access the service reports does not exist. Reported; the operator restores it (a new request) or ends it.
     */
    MISSING_LINE,
    /**
     * The subject of a grant in effect has a line on main that is not exactly the grant's (another until or
     * operation, or a line of the subject the format cannot parse): edited by hand. Reported, never removed by
     * itself: an operator adopts it or reverts it.
     */
    EDITED_LINE,
    /**
     * Content that is not a grant: a comment other than the file's header, or text the format does not parse that
     * names no subject the service knows on this target. Reported once, never removed, so nobody's notes are lost.
     */
    NOT_A_GRANT,
    /**
     * A line that was on main when the target was first checked (its baseline) and that the records did not account
     * for: imported for an operator to adopt (with or without an expiry) or remove, never removed by itself.
     */
    BASELINE;

    /** True for the kinds drift handling removes by itself on a target with {@code drift: remove}. */
    public boolean removable() {
        return this == UNAPPROVED_LINE || this == ENDED_GRANT_LINE;
    }

    /** True for the kinds about a line that is on main (all but {@link #MISSING_LINE}). */
    public boolean onMain() {
        return this != MISSING_LINE;
    }
}
