package io.changeflow.application.fake;

import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
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
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.ChangeKind;
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
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@link Operations} in memory, faithful to the port contract: one row per subject-target (I5),
 * submissions and every write checked against the transition table, {@link #apply} guarded by the
 * version read (I6), {@link #applyIfAllowed} atomic (every method holds one lock, standing in for the
 * row locks), history appended on every write. The {@link Clock} stands in for the database clock. The
 * idempotency records given (or its own) stand in for the same database's table: an open that stores an outcome
 * writes it there under the same lock as the request.
 */
public final class FakeOperations implements Operations {

    private record Key(SubjectId subject, TargetKey target) {}

    private record Row(OperationId owner, BindingStatus status, long version, Optional<Instant> expiresAt, Instant updatedAt) {}

    private final Clock clock;
    private final FakeIdempotencyRecords idempotency;
    private final Map<OperationId, Operation> operations = new LinkedHashMap<>();
    private final Map<Key, Row> rows = new HashMap<>();
    private final List<HistoryEntry> history = new ArrayList<>();
    private int writes;
    private final Map<List<String>, Long> mergeOrders = new HashMap<>();
    private long nextMergeOrder = 1;
    private final Map<List<String>, String> mergedCommits = new HashMap<>();
    private RuntimeException nextWriteFailure;
    private RuntimeException nextOpenFailure;
    private Function<Long, Optional<MergeRequestRef>> batchMergeRequests = batchId -> Optional.empty();

    private int fixedEnds;
    private Runnable beforeNextWrite;
    private Runnable beforeNextMergeRequestRecord;

    public FakeOperations(Clock clock) {
        this(clock, new FakeIdempotencyRecords(clock));
    }

    /** @param idempotency where {@link #open(ChangeRequest, StepOrder, WorkflowEvent, String, IdempotencyRecords.Outcome)} stores its outcome */
    public FakeOperations(Clock clock, FakeIdempotencyRecords idempotency) {
        this.clock = clock;
        this.idempotency = idempotency;
    }

    /** The idempotency records this store writes outcomes to. */
    public FakeIdempotencyRecords idempotency() {
        return idempotency;
    }

    @Override
    public synchronized OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail) {
        return opened(request, order, submitEvent, detail, Optional.empty());
    }

    /** Like the adapter: the outcome is stored only when the request is opened, atomically with it. */
    @Override
    public synchronized OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail,
                                        IdempotencyRecords.Outcome outcome) {
        var result = opened(request, order, submitEvent, detail, Optional.empty());
        if (result instanceof OpenResult.Opened) {
            idempotency.storeWithOpen(outcome.key(), outcome.outcome());
        }
        return result;
    }

    /** Like the adapter: {@link #open} as a REVOCATION that removes the line's operation (issue 36). */
    @Override
    public synchronized OpenResult openDriftRemoval(ChangeRequest removal, OperationId lineOperation, String detail) {
        return opened(removal, StepOrder.APPROVE_FIRST, WorkflowEvent.DRIFT_REMOVAL, detail, Optional.of(lineOperation));
    }

    private OpenResult opened(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail,
                              Optional<OperationId> removedLine) {
        if (nextOpenFailure != null) {
            var failure = nextOpenFailure;
            nextOpenFailure = null;
            throw failure;
        }
        if (operations.containsKey(request.operationId())) {
            throw new PreemptedException("operation " + request.operationId() + " already exists");
        }
        var key = new Key(request.subject(), request.target());
        var row = rows.get(key);
        var from = Optional.ofNullable(row).map(r -> new WorkflowState(operations.get(r.owner()).step(), Optional.of(r.status()),
                operations.get(r.owner()).kind()));
        var check = from.map(state -> Transitions.check(state, submitEvent)).orElseGet(() -> Transitions.check(submitEvent));
        if (check instanceof Transition.Moved && row != null && bindingOf(key, row).alreadyInEffectFor(request)) {
            check = new Transition.Refused(submitEvent, from, "already in effect until the same expiry");
        }
        var moved = switch (check) {
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
        var renews = removedLine.or(() -> Optional.ofNullable(row).filter(r -> BindingStatus.RENEWABLE.contains(r.status()))
                .map(Row::owner));
        var op = new Operation(request.operationId(), request.requester(), request.subject(), request.target(), request.reason(),
                request.expiresAt(), order, moved.step(), 1, Optional.of(status), Optional.empty(), Optional.empty(),
                Optional.empty(), detail, now, now, moved.to().kind(), renews, request.duration());
        operations.put(op.id(), op);
        history.add(new HistoryEntry(op.id(), submitEvent, Optional.empty(), moved.step(),
                Optional.ofNullable(row).map(Row::status), moved.binding(), detail, request.requester(), now));
        writes++;
        return new OpenResult.Opened(read(op.id()).orElseThrow(), history(op.id()),
                Optional.ofNullable(row).map(r -> bindingOf(key, r)));
    }

    /** Like the adapter: pinned to the status, version and owner read; the replaced owner loses its row. */
    @Override
    public synchronized OpenResult openRemoval(Binding read, OperationId id, WorkflowEvent event, String actor, String detail) {
        if (Transitions.kindOpenedBy(event).filter(ChangeKind::removes).isEmpty()) {
            throw new IllegalArgumentException(event + " does not open a removal");
        }
        if (operations.containsKey(id)) {
            throw new PreemptedException("operation " + id + " already exists");
        }
        var key = new Key(read.subject(), read.target());
        var row = rows.get(key);
        if (row == null || !row.owner().equals(read.operationId()) || row.status() != read.status()
                || row.version() != read.version()) {
            throw new PreemptedException(read.subject() + "/" + read.target() + " changed since it was read");
        }
        var owner = operations.get(row.owner());
        var moved = Transitions.check(new WorkflowState(owner.step(), Optional.of(row.status()), owner.kind()), event);
        if (!(moved instanceof Transition.Moved m)) {
            return new OpenResult.Blocked(bindingOf(key, row));
        }
        var now = clock.instant();
        var status = m.binding().orElseThrow();
        rows.put(key, new Row(id, status, row.version() + 1, row.expiresAt(), now));
        operations.put(owner.id(), new Operation(owner.id(), owner.requester(), owner.subject(), owner.target(), owner.reason(),
                owner.expiresAt(), owner.order(), owner.step(), owner.version() + 1, owner.binding(), owner.mergeRequest(),
                owner.approvalTicket(), owner.batchId(), owner.detail(), owner.createdAt(), now, owner.kind(), owner.removes()));
        history.add(new HistoryEntry(owner.id(), event, Optional.of(owner.step()), owner.step(), Optional.of(row.status()),
                Optional.empty(), "replaced by " + id, actor, now));
        var op = new Operation(id, actor, read.subject(), read.target(), detail, row.expiresAt(), StepOrder.APPROVE_FIRST,
                m.step(), 1, Optional.of(status), Optional.empty(), Optional.empty(), Optional.empty(), detail, now, now,
                m.to().kind(), owner.kind().removes() ? owner.removes() : Optional.of(owner.id()));
        operations.put(id, op);
        history.add(new HistoryEntry(id, event, Optional.empty(), m.step(), Optional.of(row.status()), m.binding(), detail,
                actor, now));
        writes++;
        return new OpenResult.Opened(read(id).orElseThrow(), history(id), Optional.of(bindingOf(key, row)));
    }

    /**
     * Like the adapter: rows in effect whose expiry is at or before the clock plus the grace, soonest first. In
     * effect: VALIDATED, or REMOVAL_REJECTED when the removal that was not approved was a revocation (a rejected
     * expiry is not asked again).
     */
    @Override
    public synchronized List<Binding> dueForExpiry(Duration grace, int limit) {
        var until = clock.instant().plus(grace);
        return rows.entrySet().stream()
                .filter(e -> e.getValue().status() == BindingStatus.VALIDATED
                        || e.getValue().status() == BindingStatus.REMOVAL_REJECTED
                        && operations.get(e.getValue().owner()).kind() == ChangeKind.REVOCATION)
                .filter(e -> e.getValue().expiresAt().filter(at -> !at.isAfter(until)).isPresent())
                .map(e -> bindingOf(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing((Binding b) -> b.expiresAt().orElseThrow()))
                .limit(limit).toList();
    }

    /** Like the adapter: renewals owning their row in {@code statuses} whose renewed grant's expiry passed (plus the grace). */
    @Override
    public synchronized List<Operation> renewalsPastRenewedExpiry(Set<BindingStatus> statuses, Duration grace, int limit) {
        var until = clock.instant().plus(grace);
        return rows.values().stream()
                .filter(row -> statuses.contains(row.status()))
                .map(row -> read(row.owner()).orElseThrow())
                .filter(op -> op.kind() == ChangeKind.GRANT && op.removes().isPresent())
                .filter(op -> renewedExpiry(op).filter(at -> !at.isAfter(until)).isPresent())
                .sorted(Comparator.comparing((Operation op) -> renewedExpiry(op).orElseThrow()))
                .limit(limit).toList();
    }

    private Optional<Instant> renewedExpiry(Operation renewal) {
        return Optional.ofNullable(operations.get(renewal.removes().orElseThrow())).flatMap(Operation::expiresAt);
    }

    /** Like the adapter: every VALIDATED row with an expiry at or before the clock plus {@code within}, the soonest first. */
    @Override
    public synchronized ExpiringGrants expiringWithin(Duration within, int limit) {
        var all = dueForExpiry(within, Integer.MAX_VALUE);
        return new ExpiringGrants(all.size(), all.stream().limit(limit).toList());
    }

    @Override
    public synchronized Optional<Operation> find(OperationId id) {
        return read(id);
    }

    @Override
    public synchronized Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note) {
        runBeforeNextWrite();
        var current = read(id);
        if (current.isPresent() && current.get().version() != expectedVersion) {
            throw new PreemptedException("operation " + id + " is at version " + current.get().version()
                    + ", not " + expectedVersion);
        }
        var moved = current.map(op -> Transitions.require(op.state(), event)).orElseGet(() -> Transitions.require(event));
        return write(current.orElseThrow(), moved, note);
    }

    @Override
    public synchronized Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note) {
        runBeforeNextWrite();
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
        if (moved.binding().equals(Optional.of(BindingStatus.MERGED)) && !current.binding().equals(moved.binding())) {
            // like the adapter: the first write to MERGED of a merge request records its merge order
            current.mergeRequest().ifPresent(mr -> mergeOrders.putIfAbsent(List.of(mr.project(), String.valueOf(mr.iid())),
                    nextMergeOrder++));
        }
        operations.put(current.id(), copy(current, moved, note.detail(), now));
        history.add(new HistoryEntry(current.id(), moved.event(), Optional.of(current.step()), moved.step(), current.binding(),
                moved.binding(), note.detail(), note.actor(), now));
        writes++;
        renewalFellThrough(current, moved, note, now);
        return read(current.id()).orElseThrow();
    }

    /** Like the adapter: a renewal that ended without effect hands the row back to the grant it renewed. */
    private void renewalFellThrough(Operation renewal, Transition.Moved moved, StepNote note, Instant now) {
        var ended = moved.binding().filter(b -> b == BindingStatus.REJECTED || b == BindingStatus.CLOSED);
        if (!renewal.isRenewal() || !renewal.ownsBinding() || ended.isEmpty() || !moved.bindingChanged()) {
            return;
        }
        var grant = operations.get(renewal.removes().orElseThrow());
        if (grant == null || !(Transitions.check(read(grant.id()).orElseThrow().state(), WorkflowEvent.RENEWAL_FELL_THROUGH)
                instanceof Transition.Moved back)) {
            return;
        }
        var key = new Key(renewal.subject(), renewal.target());
        var row = rows.get(key);
        rows.put(key, new Row(grant.id(), BindingStatus.VALIDATED, row.version() + 1, grant.expiresAt(), now));
        var detail = "The renewal " + renewal.id() + " ended without effect; this grant is in effect again until its expiry.";
        operations.put(grant.id(), new Operation(grant.id(), grant.requester(), grant.subject(), grant.target(), grant.reason(),
                grant.expiresAt(), grant.order(), back.step(), grant.version() + 1, grant.binding(), grant.mergeRequest(),
                grant.approvalTicket(), grant.batchId(), detail, grant.createdAt(), now, grant.kind(), grant.removes(), grant.duration()));
        history.add(new HistoryEntry(grant.id(), WorkflowEvent.RENEWAL_FELL_THROUGH, Optional.of(grant.step()), back.step(),
                Optional.empty(), back.binding(), detail, note.actor(), now));
        var after = operations.get(renewal.id());
        operations.put(after.id(), new Operation(after.id(), after.requester(), after.subject(), after.target(), after.reason(),
                after.expiresAt(), after.order(), after.step(), after.version() + 1, after.binding(), after.mergeRequest(),
                after.approvalTicket(), after.batchId(), after.detail(), after.createdAt(), now, after.kind(), after.removes(), after.duration()));
        history.add(new HistoryEntry(after.id(), WorkflowEvent.RENEWAL_FELL_THROUGH, Optional.of(after.step()), after.step(),
                ended, Optional.empty(), "the grant it renewed owns the row again", note.actor(), now));
    }

    private static Operation copy(Operation op, Transition.Moved moved, String detail, Instant now) {
        var leavesBatch = Transitions.leavesBatch(moved.event());
        return new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(), op.order(),
                moved.step(), op.version() + 1, op.binding(), op.mergeRequest(), op.approvalTicket(),
                leavesBatch ? Optional.empty() : op.batchId(), detail, op.createdAt(), now, op.kind(), op.removes(), op.duration());
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
    public synchronized List<Binding> bindingsOn(TargetKey target) {
        return rows.entrySet().stream()
                .filter(e -> e.getKey().target().equals(target))
                .map(e -> bindingOf(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(b -> b.subject().value()))
                .toList();
    }

    @Override
    public synchronized List<Operation> requestsOf(String requester, RequestFilter filter, int offset, int limit) {
        var status = filter.status();
        var target = filter.target();
        return operations.keySet().stream().map(id -> read(id).orElseThrow())
                .filter(op -> op.requester().equals(requester)
                        || op.kind() == ChangeKind.GRANT && op.subject().value().equals(requester))
                .filter(op -> status.isEmpty() || op.binding().equals(status))
                .filter(op -> target.isEmpty() || op.target().equals(target.get()))
                .sorted(Comparator.comparing(Operation::createdAt).reversed().thenComparing(op -> op.id().value()))
                .skip(offset).limit(limit).toList();
    }

    /** Every history entry of every operation, in the order written (what a scan of the binding history reads). */
    public synchronized List<HistoryEntry> allHistory() {
        return List.copyOf(history);
    }

    @Override
    public synchronized List<HistoryEntry> history(OperationId id) {
        return history.stream().filter(h -> h.operationId().equals(id)).toList();
    }

    @Override
    public synchronized List<Operation> stuck(Set<BindingStatus> statuses, Duration stuckFor, int limit) {
        return stuck(statuses, op -> true, stuckFor, limit);
    }

    @Override
    public synchronized List<Operation> stuck(Set<BindingStatus> statuses, TargetKey target, Duration stuckFor,
            int limit) {
        return stuck(statuses, op -> op.target().equals(target), stuckFor, limit);
    }

    private List<Operation> stuck(Set<BindingStatus> statuses, Predicate<Operation> onTarget, Duration stuckFor,
            int limit) {
        var before = clock.instant().minus(stuckFor);
        return all().stream()
                .filter(op -> op.binding().isPresent())
                .filter(onTarget)
                .filter(op -> statuses.isEmpty() ? !op.binding().get().isTerminal() : statuses.contains(op.binding().get()))
                .filter(op -> op.updatedAt().isBefore(before))
                .sorted(Comparator.comparing(Operation::updatedAt))
                .limit(limit).toList();
    }

    /** Like the adapter: per status (in enum order), by last write then row, after the position; wraps at the end. */
    @Override
    public synchronized Page scan(Set<BindingStatus> statuses, Duration olderThan, int limit) {
        return scan(statuses, olderThan, (op, sequence) -> true, limit);
    }

    @Override
    public synchronized Page scan(Set<BindingStatus> statuses, Duration olderThan, ScanCursors.Position after,
                                  int limit) {
        return scan(statuses, olderThan, position(after).<BiPredicate<Operation, Integer>>map(start -> start::before)
                .orElse((op, sequence) -> true), limit);
    }

    private Page scan(Set<BindingStatus> statuses, Duration olderThan, BiPredicate<Operation, Integer> afterStart,
                      int limit) {
        if (statuses.isEmpty() || limit < 1) {
            throw new IllegalArgumentException("a scan needs a status and a positive limit");
        }
        var before = clock.instant().minus(olderThan);
        var sequence = new HashMap<OperationId, Integer>();
        var index = 0;
        for (var id : operations.keySet()) {
            sequence.put(id, index++);
        }
        Comparator<Operation> order = Comparator.<Operation, Integer>comparing(op -> op.binding().orElseThrow().ordinal())
                .thenComparing(Operation::updatedAt).thenComparing(op -> sequence.get(op.id()));
        var candidates = all().stream()
                .filter(op -> op.binding().isPresent() && statuses.contains(op.binding().get()))
                .filter(op -> op.updatedAt().isBefore(before))
                .filter(op -> afterStart.test(op, sequence.get(op.id())))
                .sorted(order)
                .limit(limit).toList();
        if (candidates.size() < limit) {
            return new Page(candidates, Optional.empty());
        }
        var last = candidates.getLast();
        return new Page(candidates, Optional.of(new ScanCursors.Position(last.binding().orElseThrow().name() + "|"
                + last.updatedAt() + "|" + sequence.get(last.id()))));
    }

    private record Position(BindingStatus status, Instant updatedAt, int sequence) {
        boolean before(Operation op, int opSequence) {
            var status = op.binding().orElseThrow();
            if (status != this.status) {
                return status.ordinal() > this.status.ordinal();
            }
            var byTime = op.updatedAt().compareTo(updatedAt);
            return byTime > 0 || byTime == 0 && opSequence > sequence;
        }
    }

    private static Optional<Position> position(ScanCursors.Position token) {
        try {
            var parts = token.token().split("\\|");
            return Optional.of(new Position(BindingStatus.valueOf(parts[0]), Instant.parse(parts[1]), Integer.parseInt(parts[2])));
        } catch (RuntimeException garbled) {
            return Optional.empty();
        }
    }

    @Override
    public synchronized Map<MergeRequestRef, Long> mergeOrders(Collection<MergeRequestRef> mergeRequests) {
        var found = new HashMap<MergeRequestRef, Long>();
        for (var mr : mergeRequests) {
            var order = mergeOrders.get(List.of(mr.project(), String.valueOf(mr.iid())));
            if (order != null) {
                found.put(mr, order);
            }
        }
        return found;
    }

    /** Like the adapter: the merge order taken now when the merge request has none; the first commit stays. */
    @Override
    public synchronized void recordMergedCommit(MergeRequestRef mergeRequest, String commit) {
        var key = List.of(mergeRequest.project(), String.valueOf(mergeRequest.iid()));
        if (!mergeOrders.containsKey(key)) {
            mergeOrders.put(key, nextMergeOrder++);
        }
        mergedCommits.putIfAbsent(key, commit);
    }

    @Override
    public synchronized List<MergedOperation> mergedAwaitingDeploy(String project, int limit) {
        return all().stream()
                .filter(op -> op.binding().filter(BindingStatus.AWAITING_DEPLOY::contains).isPresent())
                .flatMap(op -> op.mergeRequest().filter(mr -> mr.project().equals(project)).stream().flatMap(mr -> {
                    var key = List.of(mr.project(), String.valueOf(mr.iid()));
                    return Optional.ofNullable(mergeOrders.get(key)).stream()
                            .map(order -> new MergedOperation(op, order, Optional.ofNullable(mergedCommits.get(key))));
                }))
                .sorted(Comparator.comparingLong(MergedOperation::mergeOrder))
                .limit(Math.max(0, limit))
                .toList();
    }

    /** The merge order recorded for {@code project}'s merge request {@code iid}, for the inbox fake. */
    public synchronized Optional<Long> mergeOrderOf(String project, long iid) {
        return Optional.ofNullable(mergeOrders.get(List.of(project, String.valueOf(iid))));
    }

    /** The row key of the cursor is the operation's insertion order here (the database uses the binding row's key). */
    @Override
    public synchronized MergedPage mergedLongerThan(Duration age, PageCursor after, int limit) {
        var before = clock.instant().minus(age);
        var keys = new ArrayList<>(operations.keySet());
        var candidates = all().stream()
                .filter(op -> op.binding().equals(Optional.of(BindingStatus.MERGED)))
                .filter(op -> op.updatedAt().isBefore(before))
                .map(op -> Map.entry(new PageCursor(op.updatedAt(), keys.indexOf(op.id()) + 1L), op))
                .filter(e -> CURSOR_ORDER.compare(e.getKey(), after) > 0)
                .sorted(Map.Entry.comparingByKey(CURSOR_ORDER))
                .toList();
        var page = candidates.stream().limit(Math.max(1, limit)).toList();
        var next = candidates.size() > page.size() ? Optional.of(page.getLast().getKey()) : Optional.<PageCursor>empty();
        return new MergedPage(page.stream().map(Map.Entry::getValue).toList(), next);
    }

    private static final Comparator<PageCursor> CURSOR_ORDER =
            Comparator.comparing(PageCursor::writtenAt).thenComparingLong(PageCursor::rowKey);

    @Override
    public synchronized List<Operation> idleIn(Set<BindingStatus> statuses, Duration idleFor, IdPage page) {
        var latest = clock.instant().minus(idleFor);
        return all().stream()
                .filter(op -> op.binding().map(statuses::contains).orElse(false))
                .filter(op -> !op.updatedAt().isAfter(latest))
                .filter(op -> page.after().map(after -> op.id().value().compareTo(after.value()) > 0).orElse(true))
                .sorted(Comparator.comparing(op -> op.id().value()))
                .limit(Math.max(0, page.limit())).toList();
    }

    @Override
    public synchronized List<Operation> detachedAt(Set<StepStatus> steps, IdPage page) {
        return all().stream()
                .filter(op -> op.binding().isEmpty() && steps.contains(op.step())
                        && (operations.get(op.id()).mergeRequest().isPresent() || op.step() == StepStatus.CLOSE_FAILED))
                .filter(op -> page.after().map(after -> op.id().value().compareTo(after.value()) > 0).orElse(true))
                .sorted(Comparator.comparing(op -> op.id().value()))
                .limit(Math.max(0, page.limit())).toList();
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
        var action = beforeNextMergeRequestRecord;
        beforeNextMergeRequestRecord = null;
        if (action != null) {
            action.run();
        }
        var op = operations.get(id);
        if (op == null) {
            return false;
        }
        if (op.mergeRequest().isPresent()) {
            return op.mergeRequest().get().equals(mergeRequest);
        }
        operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                op.order(), op.step(), op.version(), op.binding(), Optional.of(mergeRequest), op.approvalTicket(),
                op.batchId(), op.detail(), op.createdAt(), op.updatedAt(), op.kind(), op.removes(), op.duration()));
        return true;
    }

    /** Like the adapter: once, on the operation and on its row while it owns it; the end stored answers. */
    @Override
    public synchronized Optional<Instant> fixEnd(OperationId id, Instant end) {
        var op = operations.get(id);
        if (op == null || op.duration().isEmpty()) {
            return Optional.empty();
        }
        if (op.expiresAt().isEmpty()) {
            op = op.withEnd(end);
            operations.put(id, op);
            fixedEnds++;
            var key = new Key(op.subject(), op.target());
            var row = rows.get(key);
            if (row != null && row.owner().equals(id) && row.expiresAt().isEmpty()) {
                rows.put(key, new Row(row.owner(), row.status(), row.version(), op.expiresAt(), row.updatedAt()));
            }
        }
        return op.expiresAt();
    }

    /** How many ends {@link #fixEnd} fixed (a call that found the end fixed already does not count). */
    public synchronized int fixedEnds() {
        return fixedEnds;
    }

    @Override
    public synchronized void recordApprovalTicket(OperationId id, String ticket) {
        var op = operations.get(id);
        if (op != null) {
            operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                    op.order(), op.step(), op.version(), op.binding(), op.mergeRequest(), Optional.of(ticket),
                    op.batchId(), op.detail(), op.createdAt(), op.updatedAt(), op.kind(), op.removes(), op.duration()));
        }
    }

    @Override
    public synchronized boolean recordDetail(OperationId id, long expectedVersion, String detail) {
        var op = operations.get(id);
        if (op == null || op.version() != expectedVersion) {
            return false;
        }
        operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                op.order(), op.step(), op.version(), op.binding(), op.mergeRequest(), op.approvalTicket(),
                op.batchId(), detail, op.createdAt(), op.updatedAt(), op.kind(), op.removes(), op.duration()));
        return true;
    }

    /** For the batch fake: remembers (or forgets) the batch that claimed the operation. */
    public synchronized void assignBatch(OperationId id, Optional<Long> batchId) {
        var op = operations.get(id);
        if (op != null) {
            operations.put(id, new Operation(op.id(), op.requester(), op.subject(), op.target(), op.reason(), op.expiresAt(),
                    op.order(), op.step(), op.version(), op.binding(), op.mergeRequest(), op.approvalTicket(),
                    batchId, op.detail(), op.createdAt(), op.updatedAt(), op.kind(), op.removes(), op.duration()));
        }
    }

    /**
     * For the batch fake: where a batch member's merge request comes from (its batch's), as the adapter
     * joins it. {@code lookup} is called under this fake's lock, so it must not take the batch fake's.
     */
    public synchronized void resolveBatchMergeRequests(Function<Long, Optional<MergeRequestRef>> lookup) {
        batchMergeRequests = lookup;
    }

    /**
     * Runs {@code action} right before the next state write (apply or applyIfAllowed) reads the row: something else
     * happens to the operation between a use case's read and its write (its own writes are not hooked again).
     */
    public synchronized void beforeNextWrite(Runnable action) {
        beforeNextWrite = action;
    }

    /**
     * Runs {@code action} right before the next {@link #recordMergeRequest}: something happens to the operation between
     * the opening of its merge request on GitLab and the recording of it.
     */
    public synchronized void beforeNextMergeRequestRecord(Runnable action) {
        beforeNextMergeRequestRecord = action;
    }

    private void runBeforeNextWrite() {
        var action = beforeNextWrite;
        beforeNextWrite = null;
        if (action != null) {
            action.run();
        }
    }

    /** The next opening ({@link #open}) throws {@code failure} and writes nothing: its transaction rolled back. */
    public synchronized void failNextOpen(RuntimeException failure) {
        nextOpenFailure = failure;
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
                op.detail(), op.createdAt(), op.updatedAt(), op.kind(), op.removes(), op.duration()));
    }

    private static Binding bindingOf(Key key, Row row) {
        return new Binding(key.subject(), key.target(), row.owner(), row.status(), row.version(), row.expiresAt(), row.updatedAt());
    }
}
