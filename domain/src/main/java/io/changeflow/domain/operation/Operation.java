package io.changeflow.domain.operation;

import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowState;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One request as stored: what was asked, its step (fine state) and, while it owns its
 * subject-target row, that row's status (external state).
 *
 * @param version        increases on every state write; guarded writes pin it (no ABA)
 * @param binding        the binding status while this operation owns the row; empty after a re-application replaced it
 * @param mergeRequest   its merge request, once opened (a batch member's is the batch's)
 * @param approvalTicket the approval system's ID for its approval, once submitted
 * @param batchId        the batch that claimed it, while it is a batch member
 * @param detail         a person-readable note on the last step (never an exception message)
 */
public record Operation(OperationId id, String requester, SubjectId subject, TargetKey target, String reason,
                        Optional<Instant> expiresAt, StepOrder order, StepStatus step, long version,
                        Optional<BindingStatus> binding, Optional<MergeRequestRef> mergeRequest,
                        Optional<String> approvalTicket, Optional<Long> batchId, String detail,
                        Instant createdAt, Instant updatedAt) {

    public Operation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(requester, "requester");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(mergeRequest, "mergeRequest");
        Objects.requireNonNull(approvalTicket, "approvalTicket");
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** Both layers, as the transition table reads them. */
    public WorkflowState state() {
        return new WorkflowState(step, binding);
    }

    public Hint hint() {
        return NextAction.of(step, binding);
    }

    public boolean ownsBinding() {
        return binding.isPresent();
    }
}
