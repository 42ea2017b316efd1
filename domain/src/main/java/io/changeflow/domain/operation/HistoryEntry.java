package io.changeflow.domain.operation;

import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Instant;
import java.util.Optional;

/** One state write of an operation, as appended to its history (both layers, before and after). */
public record HistoryEntry(OperationId operationId, WorkflowEvent event, Optional<StepStatus> fromStep,
                           StepStatus toStep, Optional<BindingStatus> fromBinding, Optional<BindingStatus> toBinding,
                           String detail, String actor, Instant at) {}
