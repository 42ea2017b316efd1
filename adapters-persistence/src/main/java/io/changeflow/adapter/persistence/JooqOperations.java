package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * {@link Operations} on the {@code operation}, {@code binding} and history tables. Every
 * transaction that writes both layers locks the operation row first and the binding row second.
 * Delegates by concern: {@link OpeningWrites}, {@link TransitionWrites}, {@link PinnedWrites},
 * {@link OperationReads}, {@link CandidateReads}; docs/persistence.md has the design.
 */
final class JooqOperations implements Operations {

    private final DSLContext dsl;

    JooqOperations(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail) {
        return OpeningWrites.open(dsl, request, order, submitEvent, detail, Optional.empty());
    }

    @Override
    public OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail,
                           IdempotencyRecords.Outcome outcome) {
        return OpeningWrites.open(dsl, request, order, submitEvent, detail, Optional.of(outcome));
    }

    @Override
    public OpenResult openDriftRemoval(ChangeRequest removal, OperationId lineOperation, String detail) {
        return OpeningWrites.openDriftRemoval(dsl, removal, lineOperation, detail);
    }

    @Override
    public OpenResult openRemoval(Binding read, OperationId id, WorkflowEvent event, String actor, String detail) {
        return OpeningWrites.openRemoval(dsl, read, id, event, actor, detail);
    }

    @Override
    public Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note) {
        return TransitionWrites.apply(dsl, id, expectedVersion, event, note);
    }

    /** In chunks of 1000, one transaction and a fixed number of statements each ({@link PinnedWrites}). */
    @Override
    public List<OperationId> applyAllPinned(List<Pinned> reads, WorkflowEvent event) {
        return PinnedWrites.applyAll(dsl, reads, event);
    }

    @Override
    public Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note) {
        return TransitionWrites.applyIfAllowed(dsl, id, event, note);
    }

    @Override
    public boolean recordMergeRequest(OperationId id, MergeRequestRef mr) {
        return TransitionWrites.recordMergeRequest(dsl, id, mr);
    }

    @Override
    public Optional<java.time.Instant> fixEnd(OperationId id, java.time.Instant end) {
        return TransitionWrites.fixEnd(dsl, id, end);
    }

    @Override
    public void recordMergedCommit(MergeRequestRef mergeRequest, String commit) {
        TransitionWrites.recordMergedCommit(dsl, mergeRequest.project(), mergeRequest.iid(), commit);
    }

    @Override
    public List<MergedOperation> mergedAwaitingDeploy(String project, int limit) {
        return OperationReads.mergedAwaitingDeploy(dsl, project, limit);
    }

    @Override
    public void recordApprovalTicket(OperationId id, String ticket) {
        TransitionWrites.recordApprovalTicket(dsl, id, ticket);
    }

    @Override
    public boolean recordDetail(OperationId id, long expectedVersion, String detail) {
        return TransitionWrites.recordDetail(dsl, id, expectedVersion, detail);
    }

    @Override
    public Optional<Operation> find(OperationId id) {
        return OperationReads.find(dsl, id);
    }

    @Override
    public List<Operation> findAll(Collection<OperationId> ids) {
        return OperationReads.findAll(dsl, ids);
    }

    @Override
    public Optional<WithHistory> findWithHistory(OperationId id) {
        return OperationReads.findWithHistory(dsl, id);
    }

    @Override
    public List<HistoryEntry> history(OperationId id) {
        return OperationReads.history(dsl, id);
    }

    @Override
    public List<Operation> findByMergeRequest(String project, long iid) {
        return OperationReads.findByMergeRequest(dsl, project, iid);
    }

    @Override
    public Optional<Binding> binding(SubjectId subject, TargetKey target) {
        return OperationReads.binding(dsl, subject, target);
    }

    @Override
    public List<Binding> bindingsOf(SubjectId subject) {
        return OperationReads.bindingsOf(dsl, subject);
    }

    @Override
    public List<Binding> bindingsOn(TargetKey target) {
        return OperationReads.bindingsOn(dsl, target);
    }

    @Override
    public List<Operation> requestsOf(String requester, RequestFilter filter, int offset, int limit) {
        return OperationReads.requestsOf(dsl, requester, filter, offset, limit);
    }

    @Override
    public List<RowVersion> requestVersionsOf(String person, RequestFilter filter, int offset, int limit) {
        return OperationReads.requestVersionsOf(dsl, person, filter, offset, limit);
    }

    @Override
    public Map<MergeRequestRef, Long> mergeOrders(Collection<MergeRequestRef> mergeRequests) {
        return OperationReads.mergeOrders(dsl, mergeRequests);
    }

    @Override
    public Map<BindingStatus, Long> countByStatus() {
        return OperationReads.countByStatus(dsl);
    }

    @Override
    public List<Binding> dueForExpiry(Duration grace, int limit) {
        return CandidateReads.dueForExpiry(dsl, grace, limit);
    }

    @Override
    public List<Operation> renewalsPastRenewedExpiry(Set<BindingStatus> statuses, Duration grace, int limit) {
        return CandidateReads.renewalsPastRenewedExpiry(dsl, statuses, grace, limit);
    }

    @Override
    public ExpiringGrants expiringWithin(Duration within, int limit) {
        return CandidateReads.expiringWithin(dsl, within, limit);
    }

    @Override
    public List<Operation> stuck(Set<BindingStatus> statuses, Duration stuckFor, int limit) {
        return CandidateReads.stuck(dsl, statuses, stuckFor, limit);
    }

    @Override
    public List<Operation> stuck(Set<BindingStatus> statuses, TargetKey target, Duration stuckFor, int limit) {
        return CandidateReads.stuck(dsl, statuses, target, stuckFor, limit);
    }

    @Override
    public List<Operation> idleIn(Set<BindingStatus> statuses, Duration idleFor, IdPage page) {
        return CandidateReads.idleIn(dsl, statuses, idleFor, page);
    }

    @Override
    public List<Operation> detachedAt(Set<StepStatus> steps, IdPage page) {
        return CandidateReads.detachedAt(dsl, steps, page);
    }

    @Override
    public Page scan(Set<BindingStatus> statuses, Duration olderThan, int limit) {
        return CandidateReads.scan(dsl, statuses, olderThan, limit);
    }

    @Override
    public Page scan(Set<BindingStatus> statuses, Duration olderThan, ScanCursors.Position after, int limit) {
        return CandidateReads.scan(dsl, statuses, olderThan, after, limit);
    }

    @Override
    public MergedPage mergedLongerThan(Duration age, PageCursor after, int limit) {
        return CandidateReads.mergedLongerThan(dsl, age, after, limit);
    }
}
