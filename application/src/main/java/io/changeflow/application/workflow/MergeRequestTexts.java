package io.changeflow.application.workflow;

import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.List;

/**
 * Names and texts of an operation's (or a batch's) merge request, derived from the operation (or the
 * batch's id) alone so that every re-run of a step finds the same branch (remote-state idempotency).
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

    /** The source branch of a batch's merge request. */
    public static String batchBranchOf(long batchId) {
        return "changeflow/batch-" + batchId;
    }

    /** The title of a batch's merge request. */
    public static String batchTitleOf(long batchId, List<Operation> members) {
        var targets = members.stream().map(op -> op.target().value()).distinct().sorted().toList();
        return "Batch " + batchId + ": " + members.size() + (members.size() == 1 ? " change" : " changes") + " to "
                + String.join(", ", targets);
    }

    /** The commit message of a batch: its title and one trailer line per operation it carries. */
    public static String batchCommitMessageOf(long batchId, List<Operation> members) {
        var message = new StringBuilder(batchTitleOf(batchId, members)).append("\n\n");
        members.forEach(op -> message.append(OPERATION_TRAILER).append(op.id().value()).append('\n'));
        return message.toString();
    }

    /** The description of a batch's merge request: one line per change, then the trailers. */
    public static String batchDescriptionOf(long batchId, List<Operation> members) {
        var text = new StringBuilder("Changes requested through Changeflow, merged together as batch ")
                .append(batchId).append(".\n\n");
        for (var op : members) {
            if (op.kind().removes()) {
                text.append("- remove ").append(op.subject().value()).append(" from ").append(op.target().value())
                        .append(" (").append(op.kind() == io.changeflow.domain.state.ChangeKind.EXPIRY ? "expired " : "revoked; until ")
                        .append(op.expiresAt().map(Instant::toString).orElse("no expiry")).append(", by ")
                        .append(op.requester()).append(")\n");
                continue;
            }
            text.append("- ").append(op.subject().value()).append(" -> ").append(op.target().value())
                    .append(" (requested by ").append(op.requester()).append(", until ")
                    .append(op.expiresAt().map(Instant::toString).orElse("no expiry")).append(")\n");
        }
        text.append('\n');
        members.forEach(op -> text.append(OPERATION_TRAILER).append(op.id().value()).append('\n'));
        return text.toString();
    }
}
