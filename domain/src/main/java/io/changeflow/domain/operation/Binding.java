package io.changeflow.domain.operation;

import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * The one row of current state of a subject-target relationship (invariant I5). Its
 * {@code operationId} is the current owner: callbacks for any other operation are stale.
 */
public record Binding(SubjectId subject, TargetKey target, OperationId operationId, BindingStatus status,
                      long version, Optional<Instant> expiresAt, Instant updatedAt) {}
