package io.changeflow.application.workflow;

import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import java.time.Instant;

/**
 * Names and texts of an operation's merge request, derived from the operation alone so that every
 * re-run of a step finds the same branch (remote-state idempotency).
 */
public final class MergeRequestTexts {

    /** The trailer that names the operations a merge request carries (one line per operation). */
    public static final String OPERATION_TRAILER = "Changeflow-Operation: ";

    private MergeRequestTexts() {
    }

    /** The source branch of an operation's own merge request. */
    public static String branchOf(OperationId id) {
        return "changeflow/" + id.value();
    }

    public static String titleOf(Operation op) {
        return "Grant " + op.target().value() + " to " + op.subject().value();
    }

    public static String commitMessageOf(Operation op) {
        return titleOf(op) + "\n\n" + OPERATION_TRAILER + op.id().value() + "\n";
    }

    public static String descriptionOf(Operation op) {
        return "Change requested through Changeflow.\n\n"
                + "- Subject: " + op.subject().value() + "\n"
                + "- Target: " + op.target().value() + "\n"
                + "- Requested by: " + op.requester() + "\n"
                + "- Until: " + op.expiresAt().map(Instant::toString).orElse("no expiry") + "\n"
                + "- Reason: " + op.reason().replace("\n", " ") + "\n\n"
                + OPERATION_TRAILER + op.id().value() + "\n";
    }

    /** The request an operation was opened for. */
    public static ChangeRequest requestOf(Operation op) {
        return new ChangeRequest(op.id(), op.requester(), op.target(), op.subject(), op.reason(), op.expiresAt());
    }
}
