package io.changeflow.application.fake;

import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.PreemptedException;
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
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@link Operations} in memory, faithful to the port contract: one row per subject-target (I5),
 * submissions and every write checked against the transition table, {@link #apply} guarded by the
 * version read (I6), {@link #applyIfAllowed} atomic (every method holds one lock, standing in for the
 * row locks), history appended on every write. The {@link Clock} stands in for the database clock.
 */
public final class FakeOperations implements Operations {

    private record Key(SubjectId subject, TargetKey target) {}

    private record Row(OperationId owner, BindingStatus status, long version, Optional<Instant> expiresAt, Instant updatedAt) {}

    private final Clock clock;
    private final Map<OperationId, Operation> operations = new LinkedHashMap<>();
    private final Map<Key, Row> rows = new HashMap<>();
    private final List<HistoryEntry> history = new ArrayList<>();
    private int writes;
    private RuntimeException nextWriteFailure;
    private Function<Long, Optional<MergeRequestRef>> batchMergeRequests = batchId -> Optional.empty();

    public FakeOperations(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail) {
        if (operations.containsKey(request.operationId())) {
            throw new PreemptedException("operation " + request.operationId() + " already exists");
        }
        var key = new Key(request.subject(), request.target());
        var row = rows.get(key);
        var from = Optional.ofNullable(row).map(r -> new WorkflowState(operations.get(r.owner()).step(), Optional.of(r.status())));
        var moved = switch (Transitions.check(from, submitEvent)) {
            case Transition.Moved m -> m;
            case Transition.Refused refused -> {
                if (row == null) {
                    throw new IllegalTransitionException(refused);
                }
                yield null;
            }
        };
        if (moved == null) {
            return new OpenResult.Blocked(bindingOf(key, row));
        }
        var now = clock.instant();
        var status = moved.binding().orElseThrow();
        rows.put(key, new Row(request.operationId(), status, row == null ? 1 : row.version() + 1, request.expiresAt(), now));
        var op = new Operation(request.operationId(), request.requester(), request.subject(), request.target(), request.reason(),
                request.expiresAt(), order, moved.step(), 1, Optional.of(status), Optional.empty(), Optional.empty(),
                Optional.empty(), detail, now, now);
        operations.put(op.id(), op);
        history.add(new HistoryEntry(op.id(), submitEvent, Optional.empty(), moved.step(),
                Optional.ofNullable(row).map(Row::status), moved.binding(), detail, request.requester(), now));
        writes++;
        return new OpenResult.Opened(read(op.id()).orElseThrow());
    }

    @Override
    public synchronized Optional<Operation> find(OperationId id) {
        return read(id);
    }

    @Override
    public synchronized Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note) {
        var current = read(id);
        if (current.isPresent() && current.get().version() != expectedVersion) {
            throw new PreemptedException("operation " + id + " is at version " + current.get().version()
                    + ", not " + expectedVersion);
        }
        var moved = Transitions.require(current.map(Operation::state), event);
        return write(current.orElseThrow(), moved, note);
    }

    @Override
    public synchronized Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note) {
        var current = read(id);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        return switch (Transitions.check(current.get().state(), event)) {
            case Transition.Moved moved -> Optional.of(write(current.get(), moved, note));
            case Transition.Refused refused -> Optional.empty();
        };
    }

    private Operation write(Operation current, Transition.Moved moved, StepNote note) {
        if (nextWriteFailure != null) {
            var failure = nextWriteFailure;
            nextWriteFailure = null;
            throw failure;
        }
        var now = clock.instant();
        var key = new Key(current.subject(), current.target());
        var row = rows.get(key);
        if (current.ownsBinding() && moved.binding().isPresent() && !moved.binding().get().equals(row.status())) {
            rows.put(key, new Row(row.owner(), moved.binding().get(), row.version() + 1, row.expiresAt(), now));
        }
        operations.put(current.id(), copy(current, moved, note.detail(), now));
        history.add(new HistoryEntry(current.id(), moved.event(), Optional.of(current.step()), moved.step(), current.binding(),
                moved.binding(), note.detail(), note.actor(), now));
        writes++;
        return read(current.id()).orElseThrow();
    }

    private static Operation copy(Operation op, Transition.Moved moved, String detail, Instant now) {
        // like the adapter: a member that waits again (or is readmitted) no longer belongs to its batch
        var leavesBatch = moved.event() == WorkflowEvent.BATCH_REQUEUED || moved.event() == WorkflowEvent.BATCH_READMITTED;
        return new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(), op.order(),
                moved.step(), op.version() + 1, op.binding(), op.mergeRequest(), op.approvalTicket(),
                leavesBatch ? Optional.empty() : op.batchId(), detail, op.createdAt(), now);
    }

    @Override
    public synchronized Optional<Binding> binding(SubjectId subject, TargetKey target) {
        var key = new Key(subject, target);
        return Optional.ofNullable(rows.get(key)).map(row -> bindingOf(key, row));
    }

    @Override
    public synchronized List<Binding> bindingsOf(SubjectId subject) {
        return rows.entrySet().stream()
                .filter(e -> e.getKey().subject().equals(subject))
                .map(e -> bindingOf(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(b -> b.target().value()))
                .toList();
    }

    @Override
    public synchronized List<Operation> requestedBy(String requester, int offset, int limit) {
        return operations.keySet().stream().map(id -> read(id).orElseThrow())
                .filter(op -> op.requester().equals(requester))
                .sorted(Comparator.comparing(Operation::createdAt).reversed().thenComparing(op -> op.id().value()))
                .skip(offset).limit(limit).toList();
    }

    @Override
    public synchronized List<HistoryEntry> history(OperationId id) {
        return history.stream().filter(h -> h.operationId().equals(id)).toList();
    }

    @Override
    public synchronized List<Operation> stuck(Set<BindingStatus> statuses, Duration stuckFor, int limit) {
        var before = clock.instant().minus(stuckFor);
        return all().stream()
                .filter(op -> op.binding().isPresent())
                .filter(op -> statuses.isEmpty() ? !op.binding().get().isTerminal() : statuses.contains(op.binding().get()))
                .filter(op -> op.updatedAt().isBefore(before))
                .sorted(Comparator.comparing(Operation::updatedAt))
                .limit(limit).toList();
    }

    @Override
    public synchronized List<Operation> mergedBetween(Duration minAge, Duration maxAge, int limit) {
        var now = clock.instant();
        return all().stream()
                .filter(op -> op.binding().equals(Optional.of(BindingStatus.MERGED)))
                .filter(op -> op.updatedAt().isBefore(now.minus(minAge)) && op.updatedAt().isAfter(now.minus(maxAge)))
                .sorted(Comparator.comparing(Operation::updatedAt))
                .limit(limit).toList();
    }

    @Override
    public synchronized Map<BindingStatus, Long> countByStatus() {
        var counts = new EnumMap<BindingStatus, Long>(BindingStatus.class);
        rows.values().forEach(row -> counts.merge(row.status(), 1L, Long::sum));
        return counts;
    }

    @Override
    public synchronized List<Operation> findAll(Collection<OperationId> ids) {
        return ids.stream().distinct().map(this::read).flatMap(Optional::stream).toList();
    }

    @Override
    public synchronized List<Operation> findByMergeRequest(String project, long iid) {
        return all().stream()
                .filter(op -> op.mergeRequest().filter(mr -> mr.project().equals(project) && mr.iid() == iid).isPresent())
                .toList();
    }

    @Override
    public synchronized boolean recordMergeRequest(OperationId id, MergeRequestRef mergeRequest) {
        var op = operations.get(id);
        if (op == null) {
            return false;
        }
        if (op.mergeRequest().isPresent()) {
            return op.mergeRequest().get().equals(mergeRequest);
        }
        operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                op.order(), op.step(), op.version(), op.binding(), Optional.of(mergeRequest), op.approvalTicket(),
                op.batchId(), op.detail(), op.createdAt(), op.updatedAt()));
        return true;
    }

    @Override
    public synchronized void recordApprovalTicket(OperationId id, String ticket) {
        var op = operations.get(id);
        if (op != null) {
            operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                    op.order(), op.step(), op.version(), op.binding(), op.mergeRequest(), Optional.of(ticket),
                    op.batchId(), op.detail(), op.createdAt(), op.updatedAt()));
        }
    }

    /** For the batch fake: remembers (or forgets) the batch that claimed the operation. */
    public synchronized void assignBatch(OperationId id, Optional<Long> batchId) {
        var op = operations.get(id);
        if (op != null) {
            operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                    op.order(), op.step(), op.version(), op.binding(), op.mergeRequest(), op.approvalTicket(),
                    batchId, op.detail(), op.createdAt(), op.updatedAt()));
        }
    }

    /**
     * For the batch fake: where a batch member's merge request comes from (its batch's), as the adapter
     * joins it. {@code lookup} is called under this fake's lock, so it must not take the batch fake's.
     */
    public synchronized void resolveBatchMergeRequests(Function<Long, Optional<MergeRequestRef>> lookup) {
        batchMergeRequests = lookup;
    }

    /** The next state write (apply or applyIfAllowed) throws {@code failure} and writes nothing, like a database that is down. */
    public synchronized void failNextWrite(RuntimeException failure) {
        nextWriteFailure = failure;
    }

    /** How many state writes (including openings) happened: lets tests assert that nothing was written. */
    public synchronized int writes() {
        return writes;
    }

    /** Every operation as it is now. */
    public synchronized List<Operation> all() {
        return operations.keySet().stream().map(id -> read(id).orElseThrow()).toList();
    }

    private Optional<Operation> read(OperationId id) {
        var op = operations.get(id);
        if (op == null) {
            return Optional.empty();
        }
        var row = rows.get(new Key(op.subject(), op.target()));
        var binding = row != null && row.owner().equals(id) ? Optional.of(row.status()) : Optional.<BindingStatus>empty();
        var mergeRequest = op.mergeRequest().isPresent() ? op.mergeRequest() : op.batchId().flatMap(batchMergeRequests);
        return Optional.of(new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                op.order(), op.step(), op.version(), binding, mergeRequest, op.approvalTicket(), op.batchId(),
                op.detail(), op.createdAt(), op.updatedAt()));
    }

    private static Binding bindingOf(Key key, Row row) {
        return new Binding(key.subject(), key.target(), row.owner(), row.status(), row.version(), row.expiresAt(), row.updatedAt());
    }
}
