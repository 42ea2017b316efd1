package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * {@link Batches} on {@code merge_batch} (the generated {@code active_slot} with its unique index
 * is the single active batch per partition, I1) and {@code merge_batch_request} (the waiting set,
 * {@code batch_id IS NULL}). Delegates by concern: {@link BatchClaim} (admission, claim),
 * {@link BatchSettlement} (settle, block, status), {@link BatchReads}; docs/persistence.md has the design.
 */
final class JooqBatches implements Batches {

    private final DSLContext dsl;

    JooqBatches(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public boolean admit(OperationId id, String partition) {
        return BatchClaim.admit(dsl, id, partition);
    }

    @Override
    public boolean hasWaiting(String partition) {
        return BatchClaim.hasWaiting(dsl, partition);
    }

    @Override
    public Claim claim(String partition, int maxRequests) {
        return BatchClaim.claim(dsl, partition, maxRequests);
    }

    @Override
    public Optional<Batch> find(long batchId) {
        return BatchReads.findIn(dsl, batchId);
    }

    @Override
    public List<Batch> recent(Filter filter, int limit) {
        return BatchReads.recent(dsl, filter, limit);
    }

    @Override
    public List<Batch> active() {
        return BatchReads.active(dsl);
    }

    @Override
    public List<Batch> runningOlderThan(Duration age) {
        return BatchReads.runningOlderThan(dsl, age);
    }

    @Override
    public List<Batch> activeOlderThan(Duration age) {
        return BatchReads.activeOlderThan(dsl, age);
    }

    @Override
    public List<Batch> blockedOlderThan(Duration age) {
        return BatchReads.blockedOlderThan(dsl, age);
    }

    @Override
    public void recordMergeRequest(long batchId, MergeRequestRef mr) {
        BatchSettlement.recordMergeRequest(dsl, batchId, mr);
    }

    @Override
    public void changeStatus(long batchId, BatchStatus from, BatchStatus to, String detail) {
        BatchSettlement.changeStatus(dsl, batchId, from, to, detail);
    }

    @Override
    public Batch settle(long batchId, BatchStatus from, Resolution resolution, StepNote note) {
        return BatchSettlement.settle(dsl, batchId, from, resolution, note);
    }

    @Override
    public Map<OperationId, Integer> transientFailures(long batchId) {
        return BatchReads.transientFailures(dsl, batchId);
    }

    @Override
    public Batch block(long batchId, StepNote note) {
        return BatchSettlement.block(dsl, batchId, note);
    }
}
