package io.changeflow.domain.mr;

/** A merge request's state on GitLab as far as the workflow cares. */
public enum MergeRequestState {
    /** Open: can still be approved, rebased, merged or closed. */
    OPENED,
    /** Merged: final; it can no longer be closed. */
    MERGED,
    /** Closed without merging: final. */
    CLOSED,
    /** Locked by GitLab for a moment (e.g. while merging): look again shortly. */
    LOCKED,
    /** There is no merge request (never created, or not found). */
    ABSENT
}
