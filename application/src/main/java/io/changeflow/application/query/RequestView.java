package io.changeflow.application.query;

import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One request as its requester sees it (the {@code data} of {@code GET /api/requests/{operationId}}):
 * both state layers, the hint for what to do next, the merge request and the timeline.
 *
 * @param status   the external state; empty when a re-application replaced this request (hint CAN_REAPPLY)
 * @param step     the fine step, for troubleshooting
 * @param detail   a person-readable note on the last step
 * @param timeline the state writes, oldest first (empty in list views)
 */
public record RequestView(OperationId operationId, TargetKey targetKey, SubjectId subjectId, String requester,
                          String reason, Optional<Instant> expiresAt, StepOrder stepOrder,
                          Optional<BindingStatus> status, StepStatus step, int stepCode, Hint hint, String detail,
                          Optional<MergeRequestRef> mergeRequest, Optional<Long> batchId,
                          List<TimelineEntry> timeline, Instant createdAt, Instant updatedAt) {

    public RequestView {
        timeline = List.copyOf(timeline);
    }

    /** One state write of the request. */
    public record TimelineEntry(WorkflowEvent event, StepStatus step, Optional<BindingStatus> status, Instant at,
                                String detail) {

        static TimelineEntry of(HistoryEntry entry) {
            return new TimelineEntry(entry.event(), entry.toStep(), entry.toBinding(), entry.at(), entry.detail());
        }
    }

    /** The full view, with the timeline from the operation's history. */
    public static RequestView of(Operation op, List<HistoryEntry> history) {
        return new RequestView(op.id(), op.target(), op.subject(), op.requester(), op.reason(), op.expiresAt(),
                op.order(), op.binding(), op.step(), op.step().code(), op.hint(), op.detail(), op.mergeRequest(),
                op.batchId(), history.stream().map(TimelineEntry::of).toList(), op.createdAt(), op.updatedAt());
    }

    /** The list view, without the timeline. */
    public static RequestView summaryOf(Operation op) {
        return of(op, List.of());
    }
}
