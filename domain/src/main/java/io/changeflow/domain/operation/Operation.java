package io.changeflow.domain.operation;

import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowState;
import java.time.Duration;
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
 * @param kind           what it changes: a grant, or the removal of one (expiry, give-up, revocation)
 * @param duration       for a request of a duration (issue 32 item 3): what was asked; {@code expiresAt} is empty until
 *                       the end is fixed when its approved line is first written
 * @param removes        for a removal: the operation whose line it takes out of the grant file (the row's owner
 *                       when the removal was opened); for a renewal: the grant in effect whose line it rewrites;
 *                       empty for a first grant or a re-application
 */
public record Operation(OperationId id, String requester, SubjectId subject, TargetKey target, String reason,
                        Optional<Instant> expiresAt, StepOrder order, StepStatus step, long version,
                        Optional<BindingStatus> binding, Optional<MergeRequestRef> mergeRequest,
                        Optional<String> approvalTicket, Optional<Long> batchId, String detail,
                        Instant createdAt, Instant updatedAt, ChangeKind kind, Optional<OperationId> removes,
                        Optional<Duration> duration) {

    /** An operation of a request of an end (or of none), not of a duration. */
    public Operation(OperationId id, String requester, SubjectId subject, TargetKey target, String reason,
                     Optional<Instant> expiresAt, StepOrder order, StepStatus step, long version,
                     Optional<BindingStatus> binding, Optional<MergeRequestRef> mergeRequest,
                     Optional<String> approvalTicket, Optional<Long> batchId, String detail,
                     Instant createdAt, Instant updatedAt, ChangeKind kind, Optional<OperationId> removes) {
        this(id, requester, subject, target, reason, expiresAt, order, step, version, binding, mergeRequest,
                approvalTicket, batchId, detail, createdAt, updatedAt, kind, removes, Optional.empty());
    }

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
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(removes, "removes");
        Objects.requireNonNull(duration, "duration");
    }

    /** This operation with the end of its request of a duration fixed at {@code end}. */
    public Operation withEnd(Instant end) {
        return new Operation(id, requester, subject, target, reason, Optional.of(end), order, step, version, binding,
                mergeRequest, approvalTicket, batchId, detail, createdAt, updatedAt, kind, removes, duration);
    }

    /** The request this operation was opened for: what was asked, without its state. */
    public ChangeRequest request() {
        return new ChangeRequest(id, requester, target, subject, reason, expiresAt, duration);
    }

    /** True for a grant that renews a grant in effect (another expiry for the same subject and target). */
    public boolean isRenewal() {
        return kind == ChangeKind.GRANT && removes.isPresent();
    }

    /** For a removal, the exact line it takes out of the grant file (the grant it removes). */
    public Optional<io.changeflow.domain.request.Grant> removedLine() {
        return kind.removes() ? removes.map(owner -> new io.changeflow.domain.request.Grant(subject, expiresAt, owner))
                : Optional.empty();
    }

    /** Both layers, as the transition table reads them. */
    public WorkflowState state() {
        return new WorkflowState(step, binding, kind);
    }

    public Hint hint() {
        return NextAction.of(state());
    }

    public boolean ownsBinding() {
        return binding.isPresent();
    }
}
