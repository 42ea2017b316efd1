package io.changeflow.application.query;

import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One grant's whole life as the audit export shows it (issue 32, item 6): who asked, for whom, who approved, the
 * merge request, when it was merged and in effect, and when and why it ended. Read from the grant's history and the
 * requests that took it over; every time is the database's.
 *
 * @param kind        {@code GRANT} or {@code RENEWAL}
 * @param approvedBy  who the approval system's decision came from (the actor of the approval's state write)
 * @param mergeRequest the merge request's web URL, or {@code batch <id>} for a batch member without its own
 * @param ended       how it ended: {@code EXPIRED}, {@code GIVEN_UP}, {@code REVOKED} (its line removed by that
 *                    request), {@code RENEWED} (a renewal in effect rewrote its line), or, for a grant that never took
 *                    effect, {@code REJECTED} or {@code CLOSED}; empty while it lasts or waits
 * @param endedBy     who ended it ({@code system} for an expiry)
 * @param endedByRequest the removal or renewal that ended it
 * @param status      its current status; once another request took its row over, how it ended ({@code ended}), or
 *                    {@code REPLACED} (a re-application)
 */
public record GrantLife(OperationId operationId, String kind, String targetKey, String subjectId, String requester,
                        String reason, Instant requestedAt, Optional<Instant> until, Optional<String> approvedBy,
                        Optional<Instant> approvedAt, Optional<String> mergeRequest, Optional<Instant> mergedAt,
                        Optional<Instant> inEffectAt, Optional<Instant> endedAt, Optional<String> ended,
                        Optional<String> endedBy, Optional<OperationId> endedByRequest, String status) {

    public GrantLife {
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(approvedBy, "approvedBy");
        Objects.requireNonNull(approvedAt, "approvedAt");
        Objects.requireNonNull(mergeRequest, "mergeRequest");
        Objects.requireNonNull(mergedAt, "mergedAt");
        Objects.requireNonNull(inEffectAt, "inEffectAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(ended, "ended");
        Objects.requireNonNull(endedBy, "endedBy");
        Objects.requireNonNull(endedByRequest, "endedByRequest");
    }

    /** The end a request that took the grant over gave it, when it did. */
    private record End(Instant at, String how, String by, OperationId request) {}

    /**
     * The life of {@code grant} from its history, the requests that took it over ({@code takers}) and their
     * histories.
     */
    static GrantLife of(Operation grant, List<HistoryEntry> history, List<Operation> takers,
                        Map<OperationId, List<HistoryEntry>> histories) {
        var approval = history.stream().filter(h -> h.event().name().startsWith("APPROVAL_GRANTED")).findFirst();
        var merged = firstAt(history, BindingStatus.MERGED);
        var inEffect = firstAt(history, BindingStatus.VALIDATED);
        var takenOver = takers.stream()
                .flatMap(taker -> endBy(grant, taker, histories.getOrDefault(taker.id(), List.of())).stream())
                .min(Comparator.comparing(End::at));
        var end = takenOver.isPresent() || inEffect.isPresent() ? takenOver : history.stream()
                .filter(h -> h.toBinding().filter(s -> s == BindingStatus.REJECTED || s == BindingStatus.CLOSED).isPresent())
                .findFirst().map(h -> new End(h.at(), h.toBinding().orElseThrow().name(), h.actor(), grant.id()));
        var mergeRequest = grant.mergeRequest().map(mr -> mr.webUrl() == null || mr.webUrl().isBlank()
                        ? mr.project() + "!" + mr.iid() : mr.webUrl())
                .or(() -> grant.batchId().map(id -> "batch " + id));
        var ownEnd = end.filter(e -> e.request().equals(grant.id()));
        return new GrantLife(grant.id(), grant.isRenewal() ? "RENEWAL" : "GRANT", grant.target().value(),
                grant.subject().value(), grant.requester(), grant.reason(), grant.createdAt(), grant.expiresAt(),
                approval.map(HistoryEntry::actor), approval.map(HistoryEntry::at), mergeRequest, merged, inEffect,
                end.map(End::at), end.map(End::how), end.map(End::by),
                end.filter(e -> ownEnd.isEmpty()).map(End::request),
                grant.binding().map(BindingStatus::name).or(() -> end.map(End::how)).orElse("REPLACED"));
    }

    private static Optional<Instant> firstAt(List<HistoryEntry> history, BindingStatus status) {
        return history.stream().filter(h -> h.toBinding().filter(status::equals).isPresent()).map(HistoryEntry::at).findFirst();
    }

    /** How {@code taker} ended {@code grant}: a removal that removed its line, or a renewal that took effect. */
    private static Optional<End> endBy(Operation grant, Operation taker, List<HistoryEntry> history) {
        if (taker.kind() == ChangeKind.GRANT) {
            return firstAt(history, BindingStatus.VALIDATED).map(at -> new End(at, "RENEWED", taker.requester(), taker.id()));
        }
        var removed = history.stream().filter(h -> h.toBinding()
                .filter(s -> s == BindingStatus.EXPIRED || s == BindingStatus.REVOKED).isPresent()).findFirst();
        var story = RemovalStory.of(taker, grant);
        return removed.flatMap(h -> story.map(s -> new End(h.at(), s.cause().name(), s.by(), taker.id())));
    }
}
