package io.changeflow.domain.drift;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a drift item stands. The allowed moves are the table {@link #allows}; every write of an item's status
 * consults it (a refused move is a lost race or a stale action: the write answers "not moved").
 */
public enum DriftStatus {

    /** Seen on main (or missing from it) and nobody acted yet; the detection job updates its last sighting. */
    OPEN,
    /** A removal of exactly its line runs through the workflow (the item names the removal operation). */
    REMOVING,
    /** An operator adopted the line as a grant (the records now hold it); kept for the record. */
    ADOPTED,
    /** An operator acknowledged it with a reason: it stays as it is, no longer counted as open. */
    ACKNOWLEDGED,
    /** No longer seen (the line is gone, or the records account for it now): when and why are kept. */
    RESOLVED;

    private static final Map<DriftStatus, Set<DriftStatus>> MOVES = Map.of(
            OPEN, EnumSet.of(REMOVING, ADOPTED, ACKNOWLEDGED, RESOLVED),
            REMOVING, EnumSet.of(OPEN, RESOLVED),
            ACKNOWLEDGED, EnumSet.of(REMOVING, ADOPTED, RESOLVED),
            // an adoption whose grant request ended without a grant leaves the line to be handled again
            ADOPTED, EnumSet.of(OPEN, RESOLVED),
            // a line that comes back after it was resolved is the same item again
            RESOLVED, EnumSet.of(OPEN));

    /** The statuses of an item that is still about main as it is now (everything but {@link #RESOLVED}). */
    public static final Set<DriftStatus> ACTIVE = Set.copyOf(EnumSet.of(OPEN, REMOVING, ADOPTED, ACKNOWLEDGED));

    /** The statuses the drift metric and alert count: nobody decided yet, or a removal is still under way. */
    public static final Set<DriftStatus> UNHANDLED = Set.copyOf(EnumSet.of(OPEN, REMOVING));

    /** Whether an item may move from this status to {@code to}. */
    public boolean allows(DriftStatus to) {
        return MOVES.get(this).contains(to);
    }
}
