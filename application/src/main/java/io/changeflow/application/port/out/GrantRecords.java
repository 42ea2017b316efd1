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
 * The stored life of grants, read for the operators' audit export (issue 32, item 6): the grants of a time range
 * (requested in it, or in effect at some instant of it), page by page, their histories and the requests that took them over (removals and renewals).
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

    /** The grants of the range from {@code from} (inclusive) to {@code to} (exclusive), after {@code after} when given. */
    record Page(Instant from, Instant to, Optional<Cursor> after, int limit) {
        public Page {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(after, "after");
        }
    }

    /**
     * Grants and renewals (kind GRANT) whose record overlaps the page's range, by request time then ID, at most its
     * limit: requested in the range, or in effect at some instant of it (in effect, the first VALIDATED, before its end,
     * and not ended before its start: no request that took it over, a removal reaching EXPIRED or REVOKED or a renewal
     * reaching VALIDATED, did so before the range). Removals are not grants (they are read with {@link #takingOver}).
     */
    List<Operation> grantsOverlapping(Page page);

    /** Both layers' histories of {@code ids}, each oldest first; an ID without history is absent. */
    Map<OperationId, List<HistoryEntry>> histories(Collection<OperationId> ids);

    /**
     * The requests that name one of {@code grants} as the grant they remove (expiry, give-up, revocation) or renew,
     * oldest first.
     */
    List<Operation> takingOver(Collection<OperationId> grants);
}
