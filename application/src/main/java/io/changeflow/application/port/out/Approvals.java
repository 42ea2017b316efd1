package io.changeflow.application.port.out;

import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The company approval system. Its decision arrives later as a signed callback; when a callback is
 * lost, {@link #read} tells the decision too (the approval check, docs/external-systems-approval.md).
 * Failures throw {@link ExternalCallException}; timeouts, 5xx and an open breaker are transient.
 */
public interface Approvals {

    /**
     * The approval form.
     *
     * @param ext extension fields; {@code mrId} is set in the create-then-approve order (the MR exists)
     */
    record ApprovalForm(OperationId operationId, String requester, String subject, String target, String reason,
                        Optional<Instant> expiresAt, Map<String, String> ext) {}

    /** Where an approval stands in the approval system. */
    enum TicketStatus {
        /** Waiting for an approver. */
        PENDING,
        /** An approver approved it. */
        APPROVED,
        /** An approver rejected it. */
        REJECTED,
        /** Withdrawn before anyone decided. */
        WITHDRAWN,
        /** The approval system has no approval for this operationId (never received, or forgotten). */
        UNKNOWN;

        /** Approved, rejected or withdrawn: nothing changes any more. */
        public boolean decided() {
            return this == APPROVED || this == REJECTED || this == WITHDRAWN;
        }
    }

    /**
     * One approval as the approval system sees it.
     *
     * @param ticket    the approval system's ticket ID; empty when {@link TicketStatus#UNKNOWN}
     * @param requestId the ID the decision's callback carries (present once decided): the key that
     *                  deduplicates the decision against its callback
     * @param ext       the extension fields as submitted (the callback echoes them)
     * @param decidedBy who decided ({@code decidedBy}), once decided and when the approval system says
     */
    record Ticket(TicketStatus status, Optional<String> ticket, Optional<String> requestId, Map<String, String> ext,
                  Optional<String> decidedBy) {

        public Ticket {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(ticket, "ticket");
            Objects.requireNonNull(requestId, "requestId");
            ext = ext == null ? Map.of() : Map.copyOf(ext);
            decidedBy = decidedBy == null ? Optional.empty() : decidedBy.filter(d -> !d.isBlank());
        }

        /** A ticket that does not say who decided. */
        public Ticket(TicketStatus status, Optional<String> ticket, Optional<String> requestId, Map<String, String> ext) {
            this(status, ticket, requestId, ext, Optional.empty());
        }

        public static Ticket unknown() {
            return new Ticket(TicketStatus.UNKNOWN, Optional.empty(), Optional.empty(), Map.of());
        }

        public static Ticket pending(String ticket) {
            return new Ticket(TicketStatus.PENDING, Optional.of(ticket), Optional.empty(), Map.of());
        }

        public boolean decided() {
            return status.decided();
        }
    }

    /**
     * Submits the form. Idempotent per operationId: a retry after a lost response returns the same
     * ticket instead of opening a second approval, and says whether it is decided already.
     *
     * @return the approval, never {@link TicketStatus#UNKNOWN}; its ticket ID is always present
     */
    Ticket submit(ApprovalForm form);

    /**
     * Reads the approval of {@code operationId}.
     *
     * @return the approval; {@link Ticket#unknown()} when the approval system has none for it
     */
    Ticket read(OperationId operationId);

    /**
     * Withdraws a pending approval; already decided is not an error.
     *
     * @return the approval after the call (decided approvals stay decided); {@link Ticket#unknown()}
     *         when the approval system never saw the operation
     */
    Ticket withdraw(OperationId operationId);
}
