package io.changeflow.domain.request;

/**
 * The order of approval and merge request creation an operation runs in. Chosen at submission
 * (from {@code workflow.approveFirst}) and stored with the operation, so switching the setting
 * never changes the order of requests already in flight.
 */
public enum StepOrder {
    /** Approval first; the merge request is created after it is granted. */
    APPROVE_FIRST,
    /** The merge request is created first; its number travels in the approval form (legacy order). */
    CREATE_FIRST
}
