package io.changeflow.application.port.out;

import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The company approval system. Its decision arrives later as a signed callback.
 * Failures throw {@link ExternalCallException}.
 */
public interface Approvals {

    /**
     * The approval form.
     *
     * @param ext extension fields; {@code mrId} is set in the create-then-approve order (the MR exists)
     */
    record ApprovalForm(OperationId operationId, String requester, String subject, String target, String reason,
                        Optional<Instant> expiresAt, Map<String, String> ext) {}

    /**
     * Submits the form. Idempotent per operationId: a retry after a lost response returns the same
     * ticket instead of opening a second approval.
     *
     * @return the approval system's ticket ID
     */
    String submit(ApprovalForm form);

    /** Withdraws a pending approval; already decided is not an error. */
    void withdraw(OperationId operationId);
}
