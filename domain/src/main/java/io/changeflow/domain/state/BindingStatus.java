package io.changeflow.domain.state;

import java.util.EnumSet;
import java.util.Set;

/**
 * The external state of a subject-target relationship: the coarse phases a person cares about.
 * One row per relationship holds it (invariant I5); the fine step lives in {@link StepStatus}.
 */
public enum BindingStatus {

    /** We are sending the request to the approval system; an answer may already be on its way. */
    APPROVAL_SENDING,
    /** The approval system has the request; we wait for an approver's decision. */
    APPROVAL_SENT,
    /** We could not hand the request to the approval system; an operator can retry it. */
    APPROVAL_FAILED,
    /** A merge request with the change is being created and its checks are running. */
    MR_CREATING,
    /** The merge request exists and its checks passed; it waits to be approved and merged. */
    MR_CREATED,
    /** Approved: the bots approve and merge the merge request (rebasing when needed). */
    MERGING,
    /** Approved and waiting for the next batch round, which merges several changes together. */
    BATCH_WAITING,
    /** Part of a batch merge request that is being merged now. */
    BATCHED,
    /** Merged: the deployment pipeline is rolling the change out. */
    MERGED,
    /** In effect: the deployment pipeline confirmed the change is live. Final. */
    VALIDATED,
    /** Creating the merge request failed; it waits for an operator or for the maintainers. */
    CREATE_FAILED,
    /** Approving or merging failed; it waits for an operator or for the maintainers. */
    HANDLE_FAILED,
    /** The approver rejected (or the requester withdrew) the request. You can apply again. */
    REJECTED,
    /** Closed without taking effect (its merge request was closed). You can apply again. */
    CLOSED,
    /**
     * Merged, but the deployment did not confirm it within the deploy deadline: whether it is live is
     * unknown, so a person checks. A later deploy report, reconciliation or an operator's "confirm in
     * effect" still makes it VALIDATED.
     */
    DEPLOY_UNCONFIRMED,
    /**
     * Merged, but the deploy pipeline reported the rollout failed (or an operator marked it failed):
     * the change is not live. A later success report or an operator's "confirm in effect" still makes
     * it VALIDATED.
     */
    DEPLOY_FAILED,
    /**
     * The grant's expiry passed (database clock, plus the configured grace): its line is taken out of the grant
     * file by the next removal round of the target's file (no approval). The removal then goes on like any
     * batched change (batched, merged, confirmed in effect) and ends EXPIRED.
     */
    EXPIRING,
    /**
     * The grant was given up by its subject (or requester) or revoked by an operator: its line is taken out of the
     * grant file by the next removal round of the target's file (no approval), then ends REVOKED.
     */
    REVOKING,
    /**
     * Issue 18: the removal of a grant (its expiry, or an operator's revocation) on a target whose removals need the
     * approval system ({@code removals: approval}) was rejected, withdrawn, or not decided by the approval deadline.
     * The grant stays in effect and its line stays in the grant file; the maintainers decide (hint
     * CONTACT_MAINTAINERS). The expiry job does not ask again for a rejected expiry; a rejected revocation still
     * expires at the grant's until. An operator's revocation or the holder's give-up opens a new removal from here.
     * Issue 36: also where an operator's close ends a failed removal whose target left the catalog (step
     * CLOSED_BY_OPERATOR): nothing was removed, so the grant stays as last known.
     */
    REMOVAL_REJECTED,
    /** The grant expired and its line was removed (the deploy confirmed it). You can apply again. */
    EXPIRED,
    /** The grant was given up or revoked and its line was removed (the deploy confirmed it). You can apply again. */
    REVOKED;

    /** The single source of truth for "may this relationship be applied for again". */
    public static final Set<BindingStatus> REAPPLIABLE = Set.copyOf(EnumSet.of(REJECTED, CLOSED, EXPIRED, REVOKED));

    /** The states in which an approval callback for the current owner is still expected. */
    public static final Set<BindingStatus> AWAITING_APPROVAL =
            Set.copyOf(EnumSet.of(APPROVAL_SENDING, APPROVAL_SENT));

    /** Stopped at a failure that needs someone: an operator re-trigger or the maintainers. */
    public static final Set<BindingStatus> FAILED =
            Set.copyOf(EnumSet.of(APPROVAL_FAILED, CREATE_FAILED, HANDLE_FAILED, DEPLOY_UNCONFIRMED, DEPLOY_FAILED));

    /** Merged but not confirmed in effect: the deploy pipeline (or an operator) still decides. */
    public static final Set<BindingStatus> AWAITING_DEPLOY =
            Set.copyOf(EnumSet.of(MERGED, DEPLOY_UNCONFIRMED, DEPLOY_FAILED));

    /** End states: nothing more happens to this operation on its own. */
    public static final Set<BindingStatus> TERMINAL = Set.copyOf(EnumSet.of(VALIDATED, REJECTED, CLOSED, EXPIRED, REVOKED));

    /**
     * In effect and open to a renewal: a new request for the same subject and target with a different expiry is a
     * change (the line is rewritten with the new until), approved like a new grant; with the same expiry it is
     * not ({@link io.changeflow.domain.operation.Binding#inEffectUntil}: ALREADY_IN_EFFECT).
     */
    public static final Set<BindingStatus> RENEWABLE = Set.copyOf(EnumSet.of(VALIDATED));

    /** Due for removal, waiting for the removal round of the target's file. */
    public static final Set<BindingStatus> REMOVAL_DUE = Set.copyOf(EnumSet.of(EXPIRING, REVOKING));

    /**
     * The grant's line is in the file and the grant counts as in effect: VALIDATED, or its removal was not approved
     * ({@link #REMOVAL_REJECTED}). A give-up or an operator's revocation may start from either.
     */
    public static final Set<BindingStatus> REMOVABLE = Set.copyOf(EnumSet.of(VALIDATED, REMOVAL_REJECTED));

    /** True when a new application for the same subject and target may reuse this row. */
    public boolean isReappliable() {
        return REAPPLIABLE.contains(this);
    }

    public boolean isAwaitingApproval() {
        return AWAITING_APPROVAL.contains(this);
    }

    public boolean isTerminal() {
        return TERMINAL.contains(this);
    }

    public boolean isFailed() {
        return FAILED.contains(this);
    }

    /** Work is still going on (or waiting on a system) for this relationship. */
    public boolean isInProgress() {
        return !isTerminal() && !isFailed();
    }
}
