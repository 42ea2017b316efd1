package io.changeflow.application.fake;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Batches} in memory: admission keyed by operation (I4), one active batch per partition (I1),
 * a claim takes only unclaimed requests (I2) and moves them to BATCH_CLAIMED in the operations fake,
 * guarded batch status writes (I6).
 */
public final class FakeBatches implements Batches {

    private record Admission(String partition, Optional<Long> batchId) {}

    private final FakeOperations operations;
    private final Clock clock;
    private final Map<OperationId, Admission> admissions = new LinkedHashMap<>();
    private final Map<Long, Batch> batches = new LinkedHashMap<>();
    private long nextId = 1;
    private RuntimeException nextAdmitFailure;

    public FakeBatches(FakeOperations operations, Clock clock) {
        this.operations = operations;
        this.clock = clock;
    }

    @Override
    public synchronized boolean admit(OperationId id, String partition) {
        if (nextAdmitFailure != null) {
            var failure = nextAdmitFailure;
            nextAdmitFailure = null;
            throw failure;
        }
        return admissions.putIfAbsent(id, new Admission(partition, Optional.empty())) == null;
    }

    @Override
    public synchronized boolean hasWaiting(String partition) {
        return admissions.values().stream().anyMatch(a -> a.partition().equals(partition) && a.batchId().isEmpty());
    }

    @Override
    public synchronized Claim claim(String partition, int maxRequests) {
        if (batches.values().stream().anyMatch(b -> b.partition().equals(partition) && b.status().isActive())) {
            return new Claim.SlotOccupied();
        }
        var waiting = admissions.entrySet().stream()
                .filter(e -> e.getValue().partition().equals(partition) && e.getValue().batchId().isEmpty())
                .limit(maxRequests).map(Map.Entry::getKey).toList();
        if (waiting.isEmpty()) {
            return new Claim.NothingToClaim();
        }
        var now = clock.instant();
        var batch = new Batch(nextId++, partition, BatchStatus.RUNNING, 0, waiting, Optional.empty(), "claimed", now, now);
        batches.put(batch.id(), batch);
        for (var id : waiting) {
            admissions.put(id, new Admission(partition, Optional.of(batch.id())));
            operations.applyIfAllowed(id, WorkflowEvent.BATCH_CLAIMED, StepNote.system("Claimed by batch " + batch.id() + "."));
            operations.assignBatch(id, Optional.of(batch.id()));
        }
        return new Claim.Claimed(batch);
    }

    @Override
    public synchronized Optional<Batch> find(long batchId) {
        return Optional.ofNullable(batches.get(batchId));
    }

    @Override
    public synchronized List<Batch> recent(int limit) {
        return batches.values().stream().sorted(Comparator.comparingLong(Batch::id).reversed()).limit(limit).toList();
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
    public synchronized void recordMergeRequest(long batchId, MergeRequestRef mergeRequest) {
        var b = batches.get(batchId);
        if (b != null) {
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
        batches.put(batchId, new Batch(b.id(), b.partition(), to, b.depth(), b.members(), b.mergeRequest(), detail,
                b.createdAt(), clock.instant()));
    }

    /** The next admission throws {@code failure} and admits nothing. */
    public synchronized void failNextAdmit(RuntimeException failure) {
        nextAdmitFailure = failure;
    }

    /** Whether the request is in the waiting set (admitted and not claimed). */
    public synchronized boolean isWaiting(OperationId id) {
        var admission = admissions.get(id);
        return admission != null && admission.batchId().isEmpty();
    }

    public synchronized List<OperationId> admitted() {
        return new ArrayList<>(admissions.keySet());
    }
}
