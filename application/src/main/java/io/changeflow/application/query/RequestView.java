package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
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
import java.util.Objects;
import java.util.Optional;

/**
 * One request as its requester sees it (the {@code data} of {@code GET /api/requests/{operationId}}):
 * both state layers, the hint for what to do next, the merge request and the timeline.
 *
 * @param status   the external state; empty when a re-application replaced this request (hint CAN_REAPPLY)
 * @param step     the fine step, for troubleshooting
 * @param detail   a person-readable note on the last step
 * @param timeline the state writes, oldest first (empty in list views)
 * @param waiting  who is expected to act next, since and until when (empty when nobody is); in list views only who
 *                 and since the request's last change ({@link RequestWaits#ownerOf}), without deadline or next attempt
 * @param kind     what the request changes (grant, renewal, expiry, revocation)
 * @param previousGrant for a renewal the grant in effect whose line it rewrites, for a removal the grant whose line
 *                 it removes; empty for a first grant or a re-application
 * @param removal  for a removal, why and by whom (empty for a grant or renewal, and in list views)
 * @param duration for a request of a duration (issue 32 item 3), what was asked; {@code expiresAt} is empty until its
 *                 end is fixed when its approved line is first written
 */
public record RequestView(OperationId operationId, TargetKey targetKey, SubjectId subjectId, String requester,
                          String reason, Optional<Instant> expiresAt, StepOrder stepOrder,
                          Optional<BindingStatus> status, StepStatus step, int stepCode, Hint hint, String detail,
                          Optional<MergeRequestRef> mergeRequest, Optional<Long> batchId,
                          List<TimelineEntry> timeline, Instant createdAt, Instant updatedAt,
                          Optional<RequestWait> waiting, RequestKind kind, Optional<OperationId> previousGrant,
                          Optional<RemovalStory> removal, Optional<java.time.Duration> duration) {

    public RequestView {
        timeline = List.copyOf(timeline);
        Objects.requireNonNull(waiting, "waiting");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(previousGrant, "previousGrant");
        Objects.requireNonNull(removal, "removal");
        Objects.requireNonNull(duration, "duration");
    }

    /** This view with {@code waiting}. */
    public RequestView withWaiting(RequestWait waiting) {
        return new RequestView(operationId, targetKey, subjectId, requester, reason, expiresAt, stepOrder, status, step,
                stepCode, hint, detail, mergeRequest, batchId, timeline, createdAt, updatedAt, Optional.of(waiting), kind,
                previousGrant, removal, duration);
    }

    /** One state write of the request. */
    public record TimelineEntry(WorkflowEvent event, StepStatus step, Optional<BindingStatus> status, Instant at,
                                String detail) {

        static TimelineEntry of(HistoryEntry entry) {
            return new TimelineEntry(entry.event(), entry.toStep(), entry.toBinding(), entry.at(), entry.detail());
        }
    }

    /** The full view of a grant or renewal, with the timeline from the operation's history. */
    public static RequestView of(Operation op, List<HistoryEntry> history) {
        var view = view(op, timelineOf(history));
        return RemovalStory.of(op).map(view::withRemoval).orElse(view);
    }

    /**
     * The full view, with the timeline from the operation's history; for a removal {@code previousGrant} is the grant
     * it removes (as read now), which tells a give-up from a revocation ({@link RemovalStory}).
     */
    public static RequestView of(Operation op, List<HistoryEntry> history, Operation previousGrant) {
        var view = view(op, timelineOf(history));
        return RemovalStory.of(op, previousGrant).map(view::withRemoval).orElse(view);
    }

    /** The full view; for a removal the grant it removes is read from {@code operations} (one read). */
    public static RequestView read(Operation op, List<HistoryEntry> history, Operations operations) {
        var previousGrant = op.kind().removes() ? op.removes().flatMap(operations::find) : Optional.<Operation>empty();
        return previousGrant.map(grant -> of(op, history, grant)).orElseGet(() -> of(op, history));
    }

    private static List<TimelineEntry> timelineOf(List<HistoryEntry> history) {
        return history.stream().map(TimelineEntry::of).toList();
    }

    /**
     * The list view, without the timeline and the removal's story; its wait says who acts next since the last change
     * (no deadline, no next attempt: those need the history and the work queue).
     */
    public static RequestView summaryOf(Operation op) {
        var view = view(op, List.of());
        return RequestWaits.ownerOf(op).map(owner -> view.withWaiting(RequestWait.on(owner, op.updatedAt()))).orElse(view);
    }

    /** The view without the removal's story. */
    private static RequestView view(Operation op, List<TimelineEntry> timeline) {
        return new RequestView(op.id(), op.target(), op.subject(), op.requester(), op.reason(), op.expiresAt(),
                op.order(), op.binding(), op.step(), op.step().code(), op.hint(), op.detail(), op.mergeRequest(),
                op.batchId(), timeline, op.createdAt(), op.updatedAt(), Optional.empty(), RequestKind.of(op),
                op.removes(), Optional.empty(), op.duration());
    }

    private RequestView withRemoval(RemovalStory removal) {
        return new RequestView(operationId, targetKey, subjectId, requester, reason, expiresAt, stepOrder, status, step,
                stepCode, hint, detail, mergeRequest, batchId, timeline, createdAt, updatedAt, waiting, kind,
                previousGrant, Optional.of(removal), duration);
    }
}
