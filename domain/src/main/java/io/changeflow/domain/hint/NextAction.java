package io.changeflow.domain.hint;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowState;
import java.util.EnumSet;
import java.util.Set;

/** Classifies where a request stopped into the {@link Hint} a person sees. */
public final class NextAction {

    /**
     * Deterministic external failures: retrying on the same merge request fails again, so the
     * hint is {@link Hint#CONTACT_MAINTAINERS}. The single source of truth for that decision.
     */
    public static final Set<StepStatus> DETERMINISTIC_FAILURES = Set.copyOf(EnumSet.of(
            StepStatus.CREATE_PIPELINE_FAILED,
            StepStatus.HANDLE_PIPELINE_FAILED,
            StepStatus.HANDLE_REBASE_CONFLICT,
            StepStatus.HANDLE_MERGE_BLOCKED,
            StepStatus.BATCH_PIPELINE_FAILED,
            StepStatus.BATCH_FAILED));

    /**
     * Failures where the automatic work ended at its deadline (a pipeline pending past the pending deadline,
     * transient failures past the transient deadline): nothing retries them any more, so the hint is
     * {@link Hint#CONTACT_MAINTAINERS}. Every other failed state with hint {@link Hint#KEEP_WAITING} is retried
     * by a scheduled job ({@code RetryTransientFailures}) until the transient deadline.
     */
    public static final Set<StepStatus> GAVE_UP = Set.copyOf(EnumSet.of(
            StepStatus.CREATE_PIPELINE_UNFINISHED,
            StepStatus.CREATE_GAVE_UP,
            StepStatus.HANDLE_PIPELINE_UNFINISHED,
            StepStatus.HANDLE_GAVE_UP,
            StepStatus.APPROVAL_SUBMIT_GAVE_UP,
            StepStatus.CLOSE_GAVE_UP));

    /** Stops with an unknown outcome that can still resolve: {@link Hint#KEEP_WAITING}. */
    public static final Set<StepStatus> PENDING = Set.copyOf(EnumSet.of(
            StepStatus.HANDLE_PIPELINE_PENDING,
            StepStatus.CREATE_PIPELINE_PENDING,
            StepStatus.BATCH_PENDING));

    /**
     * Merged but not confirmed in effect (no report within the deploy deadline, or a failed rollout):
     * {@link Hint#CONTACT_MAINTAINERS} whatever the step, since only a person can tell whether it is live.
     */
    public static final Set<BindingStatus> DEPLOY_NEEDS_A_PERSON = Set.copyOf(EnumSet.of(
            BindingStatus.DEPLOY_UNCONFIRMED,
            BindingStatus.DEPLOY_FAILED));

    private NextAction() {
    }

    /** The hint for an operation in {@code state}; one replaced by a re-application (no binding) can reapply. */
    public static Hint of(WorkflowState state) {
        return state.binding().map(binding -> of(state.step(), binding)).orElse(Hint.CAN_REAPPLY);
    }

    /** The hint for an operation's step and the binding status of the row it owns. */
    public static Hint of(StepStatus step, BindingStatus status) {
        if (status.isReappliable()) {
            return Hint.CAN_REAPPLY;
        }
        if (status == BindingStatus.VALIDATED) {
            return Hint.NONE;
        }
        if (DEPLOY_NEEDS_A_PERSON.contains(status) || status == BindingStatus.REMOVAL_REJECTED) {
            return Hint.CONTACT_MAINTAINERS;
        }
        if (status.isFailed()) {
            return DETERMINISTIC_FAILURES.contains(step) || GAVE_UP.contains(step)
                    ? Hint.CONTACT_MAINTAINERS : Hint.KEEP_WAITING;
        }
        return PENDING.contains(step) ? Hint.KEEP_WAITING : Hint.NONE;
    }

    /**
     * The person-readable sentence shown with the hint: the hint's own message when there is
     * something to do, otherwise what is happening now (so a finished request never reads "being
     * processed"). A deploy that was not confirmed says so, with whom to contact.
     */
    public static String message(WorkflowState state) {
        return state.binding().map(binding -> message(state.step(), binding)).orElse(Hint.CAN_REAPPLY.message());
    }

    /** {@link #message(WorkflowState)} for an operation's step and the binding status of the row it owns. */
    public static String message(StepStatus step, BindingStatus binding) {
        var hint = of(step, binding);
        if (binding == BindingStatus.DEPLOY_UNCONFIRMED) {
            return "Your change is merged, but the deployment did not confirm it in time; please contact the maintainers.";
        }
        if (binding == BindingStatus.DEPLOY_FAILED) {
            return "Your change is merged, but rolling it out failed; please contact the maintainers.";
        }
        if (binding == BindingStatus.EXPIRED) {
            return "The grant expired and its line was removed from the grant file; you can apply again.";
        }
        if (binding == BindingStatus.REVOKED) {
            return "The grant was given up or revoked and its line was removed from the grant file; you can apply again.";
        }
        if (binding == BindingStatus.REMOVAL_REJECTED && step == StepStatus.CLOSED_BY_OPERATOR) {
            return "The removal of this grant was closed by an operator because its target left the catalog: nothing was"
                    + " removed, so the grant stays as last known; please contact the maintainers.";
        }
        if (binding == BindingStatus.REMOVAL_REJECTED) {
            return "The removal of this grant was not approved: the grant stays in effect and its line stays in the grant"
                    + " file; please contact the maintainers.";
        }
        if (hint != Hint.NONE) {
            return hint.message();
        }
        return switch (binding) {
            case VALIDATED -> "Your change is in effect.";
            case MERGED -> "Your change is merged; the deployment is rolling it out.";
            case APPROVAL_SENDING, APPROVAL_SENT -> "Waiting for an approver's decision.";
            case BATCH_WAITING -> "Approved; waiting for the next batch round, which merges it together with other changes.";
            case BATCHED -> "Being merged together with other approved changes.";
            case EXPIRING -> "The grant expired; its line is being removed by the next removal round.";
            case REVOKING -> "The grant was given up or revoked; its line is being removed by the next removal round.";
            default -> hint.message();
        };
    }
}
