package io.changeflow.application.fake;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Batches} in memory, faithful to the port contract: admission keyed by operation (I4), one
 * active batch per partition (I1), a claim takes only unclaimed requests (I2) of one bisection group
 * (the oldest waiting request's) and moves them to BATCH_CLAIMED in the operations fake, guarded batch
 * status writes (I6); {@link #settle} and {@link #block} check every member's transition before writing
 * anything, so they are all-or-nothing like the real transaction. The waiting set keeps admission order
 * (requeued members keep their place). Members show their batch's merge request through
 * {@link FakeOperations#resolveBatchMergeRequests}, as the real adapter joins it.
 */
public final class FakeBatches implements Batches {

    /** One row of the waiting set (and of the claims): admission order, group and depth of a bisection. */
    private record Row(long sequence, String partition, Optional<Long> batchId, Optional<String> group, int depth,
                       int transientFailures, Optional<Instant> eligibleAt) {
        boolean waitingNow(String partition, Instant now) {
            return this.partition.equals(partition) && batchId.isEmpty() && eligibleAt.filter(now::isBefore).isEmpty();
        }
    }

    private final FakeOperations operations;
    private final Clock clock;
    private final Map<OperationId, Row> rows = new LinkedHashMap<>();
    private final Map<Long, Batch> batches = new LinkedHashMap<>();
    /** Read by the operations fake without this fake's lock (no lock order between the two fakes). */
    private final Map<Long, MergeRequestRef> mergeRequests = new ConcurrentHashMap<>();
    private long nextId = 1;
    private long nextSequence = 1;
    private int claims;
    private int settlements;
    private RuntimeException nextAdmitFailure;

    public FakeBatches(FakeOperations operations, Clock clock) {
        this.operations = operations;
        this.clock = clock;
        operations.resolveBatchMergeRequests(id -> Optional.ofNullable(mergeRequests.get(id)));
    }

    @Override
    public synchronized boolean admit(OperationId id, String partition) {
        if (nextAdmitFailure != null) {
            var failure = nextAdmitFailure;
            nextAdmitFailure = null;
            throw failure;
        }
        if (rows.containsKey(id)) {
            return false;
        }
        rows.put(id, new Row(nextSequence++, partition, Optional.empty(), Optional.empty(), 0, 0, Optional.empty()));
        return true;
    }

    @Override
    public synchronized boolean hasWaiting(String partition) {
        var now = clock.instant();
        return rows.values().stream().anyMatch(r -> r.waitingNow(partition, now));
    }

    @Override
    public synchronized Claim claim(String partition, int maxRequests) {
        claims++;
        if (batches.values().stream().anyMatch(b -> b.partition().equals(partition) && b.status().isActive())) {
            return new Claim.SlotOccupied();
        }
        var now = clock.instant();
        var waiting = rows.entrySet().stream()
                .filter(e -> e.getValue().waitingNow(partition, now))
                .sorted(Comparator.comparingLong(e -> e.getValue().sequence()))
                .toList();
        if (waiting.isEmpty()) {
            return new Claim.NothingToClaim();
        }
        var group = waiting.getFirst().getValue().group();
        var depth = waiting.getFirst().getValue().depth();
        var members = new ArrayList<OperationId>();
        for (var entry : waiting) {
            if (members.size() == maxRequests || !entry.getValue().group().equals(group)) {
                continue;
            }
            var op = operations.find(entry.getKey());
            if (op.isEmpty() || !Transitions.check(op.get().state(), WorkflowEvent.BATCH_CLAIMED).allowed()) {
                rows.remove(entry.getKey());
                continue;
            }
            members.add(entry.getKey());
        }
        if (members.isEmpty()) {
            return new Claim.NothingToClaim();
        }
        var batch = new Batch(nextId++, partition, BatchStatus.RUNNING, depth, List.copyOf(members), Optional.empty(),
                "claimed", now, now);
        batches.put(batch.id(), batch);
        for (var id : members) {
            var row = rows.get(id);
            rows.put(id, new Row(row.sequence(), partition, Optional.of(batch.id()), row.group(), row.depth(),
                    row.transientFailures(), row.eligibleAt()));
            operations.applyIfAllowed(id, WorkflowEvent.BATCH_CLAIMED, StepNote.system("claimed by batch " + batch.id()));
            operations.assignBatch(id, Optional.of(batch.id()));
        }
        return new Claim.Claimed(batch);
    }

    @Override
    public synchronized Optional<Batch> find(long batchId) {
        return Optional.ofNullable(batches.get(batchId));
    }

    @Override
    public synchronized List<Batch> recent(Filter filter, int limit) {
        return batches.values().stream().filter(filter::matches).sorted(Comparator.comparingLong(Batch::id).reversed())
                .limit(limit).toList();
    }

    @Override
    public synchronized List<Batch> active() {
        return batches.values().stream().filter(b -> b.status().isActive()).toList();
    }

    @Override
    public synchronized List<Batch> runningOlderThan(Duration age) {
        var before = clock.instant().minus(age);
        return batches.values().stream()
                .filter(b -> b.status() == BatchStatus.RUNNING && b.createdAt().isBefore(before)).toList();
    }

    @Override
    public synchronized List<Batch> activeOlderThan(Duration age) {
        var before = clock.instant().minus(age);
        return batches.values().stream().filter(b -> !b.status().isTerminal() && b.createdAt().isBefore(before))
                .sorted(Comparator.comparing(Batch::createdAt).thenComparingLong(Batch::id)).toList();
    }

    @Override
    public synchronized List<Batch> blockedOlderThan(Duration age) {
        var before = clock.instant().minus(age);
        return batches.values().stream()
                .filter(b -> b.status() == BatchStatus.BLOCKED && b.updatedAt().isBefore(before)).toList();
    }

    @Override
    public synchronized void recordMergeRequest(long batchId, MergeRequestRef mergeRequest) {
        var b = batches.get(batchId);
        if (b != null) {
            mergeRequests.put(batchId, mergeRequest);
            batches.put(batchId, new Batch(b.id(), b.partition(), b.status(), b.depth(), b.members(),
                    Optional.of(mergeRequest), b.detail(), b.createdAt(), clock.instant()));
        }
    }

    @Override
    public synchronized void changeStatus(long batchId, BatchStatus from, BatchStatus to, String detail) {
        var b = batches.get(batchId);
        if (b == null || b.status() != from) {
            throw new PreemptedException("batch " + batchId + " is not " + from);
        }
        Transitions.requireBatch(from, to);
        batches.put(batchId, with(b, to, detail));
        if (to == BatchStatus.FAILED) {
            rows.values().removeIf(r -> r.batchId().equals(Optional.of(batchId)));
        }
    }

    @Override
    public synchronized Batch settle(long batchId, BatchStatus from, Resolution resolution, StepNote note) {
        Transitions.requireBatch(from, resolution instanceof Resolution.Merged ? BatchStatus.SUCCEEDED : BatchStatus.FAILED);
        var b = batches.get(batchId);
        if (b == null || b.status() != from) {
            throw new PreemptedException("batch " + batchId + " is not " + from);
        }
        var claimed = claimedBy(batchId);
        var moves = new LinkedHashMap<OperationId, WorkflowEvent>();
        switch (resolution) {
            case Resolution.Merged merged -> claimed.forEach(id -> moves.put(id, merged.notBorne().containsKey(id)
                    ? WorkflowEvent.BATCH_GAVE_UP : WorkflowEvent.BATCH_MERGED));
            case Resolution.Failed failed -> failed.plan().members().forEach(id -> moves.put(id, failed.plan().memberEvent()));
        }
        if (!new HashSet<>(claimed).equals(moves.keySet()) || claimed.size() != moves.size()) {
            throw new IllegalArgumentException("the plan names " + moves.keySet() + ", batch " + batchId + " has " + claimed);
        }
        var notes = new HashMap<OperationId, StepNote>();
        if (resolution instanceof Resolution.Merged merged) {
            if (!claimed.containsAll(merged.notBorne().keySet())) {
                throw new IllegalArgumentException("not borne " + merged.notBorne().keySet() + ", batch " + batchId
                        + " has " + claimed);
            }
            merged.notBorne().forEach((id, why) -> notes.put(id, new StepNote(why, note.actor())));
        }
        moveAll(moves, note, notes);
        switch (resolution) {
            case Resolution.Merged merged -> claimed.forEach(rows::remove);
            case Resolution.Failed failed -> {
                switch (failed.plan()) {
                    case Bisection.Plan.RequeueAll<OperationId> all -> all.members().forEach(id -> requeue(id, rows.get(id).group(),
                            rows.get(id).depth(), failed.retries()));
                    case Bisection.Plan.Split<OperationId> split -> {
                        split.firstHalf().forEach(id -> requeue(id, Optional.of(Bisection.Plan.Split.firstGroup(batchId)), split.depth(),
                                failed.retries()));
                        split.secondHalf().forEach(id -> requeue(id, Optional.of(Bisection.Plan.Split.secondGroup(batchId)), split.depth(),
                                failed.retries()));
                    }
                    case Bisection.Plan.Blame<OperationId> blame -> rows.remove(blame.culprit());
                    case Bisection.Plan.GiveUp<OperationId> giveUp -> giveUp.members().forEach(rows::remove);
                }
            }
        }
        var settled = with(b, resolution instanceof Resolution.Merged ? BatchStatus.SUCCEEDED : BatchStatus.FAILED,
                note.detail());
        batches.put(batchId, settled);
        settlements++;
        return settled;
    }

    @Override
    public synchronized Batch block(long batchId, StepNote note) {
        var b = batches.get(batchId);
        if (b == null || b.status() != BatchStatus.RUNNING) {
            throw new PreemptedException("batch " + batchId + " is not RUNNING");
        }
        var moves = new LinkedHashMap<OperationId, WorkflowEvent>();
        claimedBy(batchId).forEach(id -> moves.put(id, WorkflowEvent.BATCH_BLOCKED));
        moveAll(moves, note);
        var blocked = with(b, BatchStatus.BLOCKED, note.detail());
        batches.put(batchId, blocked);
        return blocked;
    }

    /** Checks every member's transition first, then writes them: all or nothing. */
    private void moveAll(Map<OperationId, WorkflowEvent> moves, StepNote note) {
        moveAll(moves, note, Map.of());
    }

    /** {@link #moveAll(Map, StepNote)}, the members in {@code notes} with their own note. */
    private void moveAll(Map<OperationId, WorkflowEvent> moves, StepNote note, Map<OperationId, StepNote> notes) {
        moves.forEach((id, event) -> Transitions.require(operations.find(id)
                .orElseThrow(() -> new PreemptedException("member " + id + " vanished")).state(), event));
        moves.forEach((id, event) -> {
            var op = operations.find(id).orElseThrow();
            operations.apply(id, op.version(), event, notes.getOrDefault(id, note));
        });
    }

    private void requeue(OperationId id, Optional<String> group, int depth, Map<OperationId, TransientRetries.Retry> retries) {
        var row = rows.get(id);
        var retry = Optional.ofNullable(retries.get(id));
        rows.put(id, new Row(row.sequence(), row.partition(), Optional.empty(), group, depth,
                retry.map(TransientRetries.Retry::transientFailures).orElse(row.transientFailures()),
                retry.map(r -> clock.instant().plus(r.eligibleAfter()))));
    }

    @Override
    public synchronized Map<OperationId, Integer> transientFailures(long batchId) {
        var counts = new LinkedHashMap<OperationId, Integer>();
        claimedBy(batchId).forEach(id -> counts.put(id, rows.get(id).transientFailures()));
        return counts;
    }

    private List<OperationId> claimedBy(long batchId) {
        return rows.entrySet().stream().filter(e -> e.getValue().batchId().equals(Optional.of(batchId)))
                .sorted(Comparator.comparingLong(e -> e.getValue().sequence())).map(Map.Entry::getKey).toList();
    }

    private Batch with(Batch b, BatchStatus status, String detail) {
        return new Batch(b.id(), b.partition(), status, b.depth(), b.members(), b.mergeRequest(),
                Objects.requireNonNullElse(detail, ""), b.createdAt(), clock.instant());
    }

    // ---- what tests use ----------------------------------------------------------------------------

    /** The next admission throws {@code failure} and admits nothing. */
    public synchronized void failNextAdmit(RuntimeException failure) {
        nextAdmitFailure = failure;
    }

    /** Whether the request is in the waiting set (admitted and not claimed). */
    public synchronized boolean isWaiting(OperationId id) {
        var row = rows.get(id);
        return row != null && row.batchId().isEmpty();
    }

    /** When the waiting request may be claimed again after a transient failure (empty: at once). */
    public synchronized Optional<Instant> eligibleAt(OperationId id) {
        return Optional.ofNullable(rows.get(id)).flatMap(Row::eligibleAt);
    }

    /** The bisection group the request waits in (empty: fresh, or not waiting). */
    public synchronized Optional<String> groupOf(OperationId id) {
        return Optional.ofNullable(rows.get(id)).flatMap(Row::group);
    }

    public synchronized List<OperationId> admitted() {
        return new ArrayList<>(rows.keySet());
    }

    /** How many claim transactions ran (the pre-check is not one). */
    public synchronized int claims() {
        return claims;
    }

    /** How many settlements committed. */
    public synchronized int settlements() {
        return settlements;
    }

    /** Every batch, oldest first. */
    public synchronized List<Batch> all() {
        return List.copyOf(batches.values());
    }

    /** Makes the batch look {@code age} older (its creation time moves back), as if it had run that long. */
    public synchronized void age(long batchId, Duration age) {
        var b = batches.get(batchId);
        batches.put(batchId, new Batch(b.id(), b.partition(), b.status(), b.depth(), b.members(), b.mergeRequest(),
                b.detail(), b.createdAt().minus(age), b.updatedAt()));
    }

    /** Makes the batch's last write look {@code age} older, as if it had stayed as it is that long. */
    public synchronized void idle(long batchId, Duration age) {
        var b = batches.get(batchId);
        batches.put(batchId, new Batch(b.id(), b.partition(), b.status(), b.depth(), b.members(), b.mergeRequest(),
                b.detail(), b.createdAt().minus(age), b.updatedAt().minus(age)));
    }
}
