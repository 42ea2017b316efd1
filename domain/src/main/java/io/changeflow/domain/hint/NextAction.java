package io.changeflow.domain.hint;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.EnumSet;
import java.util.Optional;
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
            StepStatus.BATCH_PIPELINE_FAILED,
            StepStatus.BATCH_FAILED));

    /** Stops with an unknown outcome that can still resolve: {@link Hint#KEEP_WAITING}. */
    public static final Set<StepStatus> PENDING = Set.copyOf(EnumSet.of(
            StepStatus.HANDLE_PIPELINE_PENDING,
            StepStatus.CREATE_PIPELINE_PENDING,
            StepStatus.BATCH_PENDING));

    private NextAction() {
    }

    /** The hint for an operation's step and the binding it owns (empty when replaced by a re-application). */
    public static Hint of(StepStatus step, Optional<BindingStatus> binding) {
        if (binding.isEmpty()) {
            return Hint.CAN_REAPPLY;
        }
        var status = binding.get();
        if (status.isReappliable()) {
            return Hint.CAN_REAPPLY;
        }
        if (status == BindingStatus.VALIDATED) {
            return Hint.NONE;
        }
        if (status.isFailed()) {
            return DETERMINISTIC_FAILURES.contains(step) ? Hint.CONTACT_MAINTAINERS : Hint.KEEP_WAITING;
        }
        return PENDING.contains(step) ? Hint.KEEP_WAITING : Hint.NONE;
    }

    public static Hint of(StepStatus step, BindingStatus binding) {
        return of(step, Optional.of(binding));
    }

    /**
     * The person-readable sentence shown with the hint: the hint's own message when there is
     * something to do, otherwise what is happening now (so a finished request never reads "being
     * processed").
     */
    public static String message(StepStatus step, Optional<BindingStatus> binding) {
        var hint = of(step, binding);
        if (hint != Hint.NONE || binding.isEmpty()) {
            return hint.message();
        }
        return switch (binding.get()) {
            case VALIDATED -> "Your change is in effect.";
            case MERGED -> "Your change is merged; the deployment is rolling it out.";
            case APPROVAL_SENDING, APPROVAL_SENT -> "Waiting for an approver's decision.";
            case BATCH_WAITING -> "Approved; waiting for the next batch round, which merges it together with other changes.";
            case BATCHED -> "Being merged together with other approved changes.";
            default -> hint.message();
        };
    }
}
