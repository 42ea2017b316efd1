package io.changeflow.domain.state;

/**
 * Everything that can happen to an operation. The {@link Transitions} table says, for each event,
 * from which states it is allowed and which state it leads to. Names say what happened.
 */
public enum WorkflowEvent {
    /** A request (first or re-application) was accepted in the approve-then-create order. */
    SUBMITTED_APPROVE_FIRST,
    /** A request (first or re-application) was accepted in the create-then-approve order. */
    SUBMITTED_CREATE_FIRST,
    /**
     * The grant in effect passed its expiry (database clock, plus the grace): a removal operation takes the
     * subject-target row over (in place, I5) and waits for the removal round. Opens an {@link ChangeKind#EXPIRY}.
     */
    EXPIRY_DUE,
    /**
     * The subject (or the requester) gave the grant in effect up, or an operator revoked it: a removal operation
     * takes the row over and waits for the removal round. Opens a {@link ChangeKind#REVOCATION}.
     */
    REVOCATION_REQUESTED,
    /**
     * Like {@link #EXPIRY_DUE}, on a target whose removals need the approval system ({@code removals: approval}): the
     * removal opens directly in APPROVAL_SENDING (never in EXPIRING, which the expiry job admits to the removal
     * round), and the approver decides. Opens an {@link ChangeKind#EXPIRY}.
     */
    EXPIRY_DUE_FOR_APPROVAL,
    /**
     * Like {@link #REVOCATION_REQUESTED} for an operator's revocation on a target whose removals need the approval
     * system: opens directly in APPROVAL_SENDING. Opens a {@link ChangeKind#REVOCATION}.
     */
    REVOCATION_FOR_APPROVAL,
    /**
     * A removal's approval was rejected, withdrawn, or not decided by the approval deadline: the grant stays in
     * effect with its line in the file (REMOVAL_REJECTED). Only for the removal kinds (a grant's takes
     * APPROVAL_REJECTED or APPROVAL_WITHDRAWN).
     */
    REMOVAL_NOT_APPROVED,
    /**
     * Issue 36: an operator closed a removal whose target left the catalog (no removal round can take its line out
     * any more), waiting for its round or failed as a batch member: nothing was removed, so it ends REMOVAL_REJECTED
     * (the grant as last known, its line in the file, a person decides), never EXPIRED or REVOKED. Removals only.
     */
    REMOVAL_CLOSED,
    /**
     * Issue 36: drift detection found on main a line nobody approved, or a line of an ended grant, on a target with
     * {@code drift: remove}: a removal of exactly that line (its subject, until and operation) takes the subject-target
     * row over, from a re-appliable row (REJECTED, CLOSED, EXPIRED, REVOKED) or where the subject has none, and waits
     * for the removal round of its file like a revocation (confirmed removed, it ends REVOKED). Never from a row in
     * progress or in effect. Opens a {@link ChangeKind#REVOCATION}.
     */
    DRIFT_REMOVAL,
    /**
     * The renewal that replaced this grant ended without taking effect (rejected, withdrawn, closed): the grant,
     * whose line is still in the file, owns its row again, in effect until its own expiry. Allowed only for a
     * replaced grant that was in effect; the write pins the renewal as the row's owner.
     */
    RENEWAL_FELL_THROUGH,
    /** The approval is about to be sent (create-then-approve after the MR passed, or a retry). */
    APPROVAL_REQUESTED,
    /** The approval system accepted the submission. */
    APPROVAL_SUBMITTED,
    /** The approval system could not take the submission. */
    APPROVAL_SUBMIT_FAILED,
    /** Approved, no merge request yet: create it next. */
    APPROVAL_GRANTED_CREATE,
    /** Approved, target is batchable: join the waiting set. */
    APPROVAL_GRANTED_BATCH,
    /** Approved, the merge request already exists (create-then-approve): approve and merge next. */
    APPROVAL_GRANTED_MERGE,
    /** The approver rejected. */
    APPROVAL_REJECTED,
    /** The request was withdrawn in the approval system. */
    APPROVAL_WITHDRAWN,
    /** The create step (re)starts: branch, commit, merge request. */
    CREATE_STARTED,
    /** The merge request was opened; its pipeline runs. */
    MR_OPENED,
    /** The merge request's check pipeline passed. */
    MR_PIPELINE_PASSED,
    /** The merge request's check pipeline failed. */
    MR_PIPELINE_FAILED,
    /** The merge request's check pipeline did not finish in time. */
    MR_PIPELINE_TIMED_OUT,
    /** The create step failed unexpectedly (its declared failure state). */
    CREATE_ERROR,
    /** The merge request's check pipeline stayed pending past the pending deadline: a person looks. */
    MR_PIPELINE_UNFINISHED,
    /** The create step kept failing transiently until the transient deadline: retries stopped. */
    CREATE_GAVE_UP,
    /** The handle step (re)starts: read remote state, approve, merge. */
    HANDLE_STARTED,
    /** Both bots approved. */
    BOTS_APPROVED,
    /** A rebase was started after a failed merge. */
    REBASE_STARTED,
    /** The merge request is merged (by us now, or found already merged). */
    MERGED,
    /** A bot could not approve even after retries. */
    BOTS_APPROVAL_FAILED,
    /** The rebase hit a conflict. */
    REBASE_CONFLICT,
    /** The pipeline before merging failed. */
    HANDLE_PIPELINE_FAILED,
    /** The pipeline before merging did not finish in time. */
    HANDLE_PIPELINE_TIMED_OUT,
    /** The handle step failed unexpectedly (its declared failure state). */
    HANDLE_ERROR,
    /** The pipeline before merging stayed pending past the pending deadline: a person looks. */
    HANDLE_PIPELINE_UNFINISHED,
    /** The handle step kept failing transiently until the transient deadline: retries stopped. */
    HANDLE_GAVE_UP,
    /** Sending to the approval system kept failing transiently until the transient deadline: retries stopped. */
    APPROVAL_SUBMIT_GAVE_UP,
    /** GitLab refuses to merge for a reason a person has to remove (draft, discussions, blocked, policy, ...). */
    MERGE_BLOCKED,
    /** The merge request was found closed on GitLab. */
    MR_CLOSED_REMOTELY,
    /** The deploy pipeline reported the change in effect (or reconciliation inferred it). */
    DEPLOYED,
    /** No deploy report confirmed the merged change within the deploy deadline. */
    DEPLOY_DEADLINE_PASSED,
    /** The deploy pipeline reported that rolling the change out failed. */
    DEPLOY_REPORTED_FAILED,
    /** An operator marked the rollout of the merged change as failed. */
    DEPLOY_MARKED_FAILED,
    /** A batch round claimed this waiting request. */
    BATCH_CLAIMED,
    /** The batch failed without blaming this member (or it goes to a bisection half): wait again. */
    BATCH_REQUEUED,
    /** The batch merge request holding this member merged. */
    BATCH_MERGED,
    /** The batch holding this member is blocked with an unknown outcome. */
    BATCH_BLOCKED,
    /** Bisection isolated this member as the cause of the batch failure. */
    BATCH_CULPRIT_FAILED,
    /** The batch failed and the split limit was reached. */
    BATCH_GAVE_UP,
    /** An operator sent a failed batch member back to the waiting set. */
    BATCH_READMITTED,
    /** Closing the operation's merge request started (cleanup or operator close). */
    CLOSE_STARTED,
    /** The merge request is closed (or was found already closed or merged). */
    CLOSE_DONE,
    /** Closing the merge request failed. */
    CLOSE_FAILED,
    /**
     * The failed-close retry job stopped at the transient deadline: the merge request is a person's to close (a re-trigger
     * starts a close again).
     */
    CLOSE_GAVE_UP,
    /** An operator closed the request without merging. */
    CLOSED_BY_OPERATOR,
    /**
     * Issue 37: the person this request was asked for asked for the same target themselves before it was merging:
     * their own request replaces it, nothing of it was merged.
     */
    SUPERSEDED_BY_SUBJECT
}
