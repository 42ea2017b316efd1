package io.changeflow.application.port.out;

import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The stored life of grants, read for the operators' audit export (issue 32, item 6): the grants requested in a
 * time range, page by page, their histories and the requests that took them over (removals and renewals).
 * Read-only; each method is one read.
 */
public interface GrantRecords {

    /** Where a page ended: the last grant's request time and ID (pages are ordered by both). */
    record Cursor(Instant requestedAt, OperationId id) {
        public Cursor {
            Objects.requireNonNull(requestedAt, "requestedAt");
            Objects.requireNonNull(id, "id");
        }
    }

    /** Grants requested at or after {@code from} and before {@code to}, after {@code after} when given. */
    record Page(Instant from, Instant to, Optional<Cursor> after, int limit) {
        public Page {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(after, "after");
        }
    }

    /**
     * Grants and renewals (kind GRANT) requested in the page's range, by request time then ID, at most its limit;
     * removals are not grants (they are read with {@link #takingOver}).
     */
    List<Operation> grantsRequested(Page page);

    /** Both layers' histories of {@code ids}, each oldest first; an ID without history is absent. */
    Map<OperationId, List<HistoryEntry>> histories(Collection<OperationId> ids);

    /**
     * The requests that name one of {@code grants} as the grant they remove (expiry, give-up, revocation) or renew,
     * oldest first.
     */
    List<Operation> takingOver(Collection<OperationId> grants);
}
