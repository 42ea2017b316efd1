package io.changeflow.domain.batch;

import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A merge batch: one merge request carrying the changes of several approved requests.
 *
 * @param partition the slot it holds while active (one active batch per partition)
 * @param depth     how many bisection splits led to its members (0 for fresh requests)
 * @param members   the claimed operations, in claim order
 */
public record Batch(long id, String partition, BatchStatus status, int depth, List<OperationId> members,
                    Optional<MergeRequestRef> mergeRequest, String detail, Instant createdAt, Instant updatedAt) {}
