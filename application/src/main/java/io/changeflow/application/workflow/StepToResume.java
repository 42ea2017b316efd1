package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.StepStatus;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which step continues an operation from where it stopped: what an operator's re-trigger runs and
 * what the timeout sweep re-schedules when a step lost its task. Every step re-reads remote state
 * first, so running it again is safe (an already merged request finishes, an approved bot is skipped).
 */
public final class StepToResume {

    private static final Set<StepStatus> CLOSING = EnumSet.of(StepStatus.CLOSE_STARTED, StepStatus.CLOSE_FAILED,
            StepStatus.CLOSE_GAVE_UP);
    private static final Set<StepStatus> BATCH_FAILURES = EnumSet.of(StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);

    private StepToResume() {
    }

    /**
     * The step to run, or empty when nothing runs on its own from here: waiting for a batch round, for the deploy callback, finished, or a batch member in a batch (settled with
     * its batch).
     *
     * <p>{@link StepKind#BATCH} for a failed batch member (the culprit of a bisection, or a member of a
     * batch that gave up) means "back into the batch path": an operator's re-trigger readmits it to the
     * waiting set ({@code ReadmitBatchMember}); it is never a step scheduled with the operation as ref.
     *
     * <p>{@link StepKind#CHECK_APPROVAL} while waiting for the approver: ask the approval system now
     * (the recurring approval check does the same later on its own).
     */
    public static Optional<StepKind> of(Operation op) {
        if (op.binding().isEmpty()) {
            return CLOSING.contains(op.step()) ? Optional.of(StepKind.CLOSE) : Optional.empty();
        }
        return switch (op.binding().get()) {
            case APPROVAL_SENDING, APPROVAL_FAILED -> Optional.of(StepKind.SUBMIT_APPROVAL);
            case MR_CREATING, CREATE_FAILED -> Optional.of(StepKind.CREATE);
            case MR_CREATED -> Optional.of(op.order() == StepOrder.APPROVE_FIRST ? StepKind.HANDLE : StepKind.SUBMIT_APPROVAL);
            case MERGING -> Optional.of(StepKind.HANDLE);
            case HANDLE_FAILED -> Optional.of(BATCH_FAILURES.contains(op.step()) ? StepKind.BATCH : StepKind.HANDLE);
            case REJECTED, CLOSED -> CLOSING.contains(op.step()) ? Optional.of(StepKind.CLOSE) : Optional.empty();
            case APPROVAL_SENT -> Optional.of(StepKind.CHECK_APPROVAL);
            case BATCH_WAITING, BATCHED, MERGED, VALIDATED, DEPLOY_UNCONFIRMED, DEPLOY_FAILED, EXPIRING, REVOKING, EXPIRED,
                 REVOKED, REMOVAL_REJECTED -> Optional.empty();
        };
    }
}
