package io.changeflow.application.workflow;

import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.List;

/**
 * Names and texts of an operation's (or a batch's) merge request, derived from the operation (or the
 * batch's id) alone so that every re-run of a step finds the same branch (remote-state idempotency).
 * Every value that comes from a person (subject, target, requester, reason) goes through
 * {@link #printable(String)}: it stays on the line it was put on, so no user text can start a line of
 * its own, in particular not a machine-readable {@value #OPERATION_TRAILER}line.
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

    /** The title of an operation's own merge request. */
    public static String titleOf(Operation op) {
        return titleOf(op.target().value(), op.subject().value());
    }

    /** The title of a request's own merge request for {@code target} and {@code subject}. */
    public static String titleOf(String target, String subject) {
        return "Grant " + printable(target) + " to " + printable(subject);
    }

    /**
     * {@code text} as printable text on one line: every control character (including CR, LF, TAB and
     * U+0085), line or paragraph separator (U+2028, U+2029) and invisible format character (such as
     * bidirectional overrides) becomes a space, runs of spaces become one, and the ends are trimmed.
     */
    public static String printable(String text) {
        var out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            var type = Character.getType(c);
            var blank = Character.isISOControl(c) || Character.isWhitespace(c) || Character.isSpaceChar(c)
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.FORMAT
                    || type == Character.UNASSIGNED || type == Character.PRIVATE_USE || type == Character.SURROGATE;
            if (!blank) {
                out.appendCodePoint(c);
            } else if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
                out.append(' ');
            }
        });
        return out.toString().strip();
    }

    public static String commitMessageOf(Operation op) {
        return commitMessage(titleOf(op), List.of(op.id()));
    }

    /** A commit message of Changeflow's: the title, a blank line and one trailer line per operation. */
    public static String commitMessage(String title, List<OperationId> operations) {
        var message = new StringBuilder(title).append("\n\n");
        operations.forEach(id -> message.append(OPERATION_TRAILER).append(id.value()).append('\n'));
        return message.toString();
    }

    public static String descriptionOf(Operation op) {
        return "Change requested through Changeflow.\n\n"
                + "- Subject: " + printable(op.subject().value()) + "\n"
                + "- Target: " + printable(op.target().value()) + "\n"
                + "- Requested by: " + printable(op.requester()) + "\n"
                + "- Until: " + op.expiresAt().map(Instant::toString).orElse("no expiry") + "\n"
                + "- Reason: " + printable(op.reason()) + "\n\n"
                + OPERATION_TRAILER + op.id().value() + "\n";
    }

    /** The source branch of a batch's merge request. */
    public static String batchBranchOf(long batchId) {
        return "changeflow/batch-" + batchId;
    }

    /** The batch whose merge request's source branch is {@code branch} ({@link #batchBranchOf}); empty for any other. */
    public static java.util.OptionalLong batchOfBranch(String branch) {
        var prefix = batchBranchOf(0).substring(0, batchBranchOf(0).length() - 1);
        if (!branch.startsWith(prefix) || !branch.substring(prefix.length()).matches("[1-9][0-9]{0,17}")) {
            return java.util.OptionalLong.empty();
        }
        return java.util.OptionalLong.of(Long.parseLong(branch.substring(prefix.length())));
    }

    /** The operation whose own merge request's source branch is {@code branch} ({@link #branchOf}); empty for any other. */
    public static java.util.Optional<OperationId> operationOfBranch(String branch) {
        var prefix = "changeflow/";
        return branch.startsWith(prefix) ? OperationId.parse(branch.substring(prefix.length())).filter(id ->
                branchOf(id).equals(branch)) : java.util.Optional.empty();
    }

    /** The title of a batch's merge request. */
    public static String batchTitleOf(long batchId, List<Operation> members) {
        return batchTitleOf(batchId, members.size(), members.stream().map(op -> op.target().value()).toList());
    }

    /** The title of a batch of {@code changes} changes to {@code targets}. */
    public static String batchTitleOf(long batchId, int changes, List<String> targets) {
        var names = targets.stream().map(MergeRequestTexts::printable).distinct().sorted().toList();
        return "Batch " + batchId + ": " + changes + (changes == 1 ? " change" : " changes") + " to " + String.join(", ", names);
    }

    /** The commit message of a batch: its title and one trailer line per operation it carries. */
    public static String batchCommitMessageOf(long batchId, List<Operation> members) {
        return commitMessage(batchTitleOf(batchId, members), members.stream().map(Operation::id).toList());
    }

    /** The description of a batch's merge request: one line per change, then the trailers. */
    public static String batchDescriptionOf(long batchId, List<Operation> members) {
        var text = new StringBuilder("Changes requested through Changeflow, merged together as batch ")
                .append(batchId).append(".\n\n");
        for (var op : members) {
            if (op.kind().removes()) {
                text.append("- remove ").append(printable(op.subject().value())).append(" from ").append(printable(op.target().value()))
                        .append(" (").append(op.kind() == io.changeflow.domain.state.ChangeKind.EXPIRY ? "expired " : "revoked; until ")
                        .append(op.expiresAt().map(Instant::toString).orElse("no expiry")).append(", by ")
                        .append(printable(op.requester())).append(")\n");
                continue;
            }
            text.append("- ").append(printable(op.subject().value())).append(" -> ").append(printable(op.target().value()))
                    .append(" (requested by ").append(printable(op.requester())).append(", until ")
                    .append(op.expiresAt().map(Instant::toString).orElse("no expiry")).append(")\n");
        }
        text.append('\n');
        members.forEach(op -> text.append(OPERATION_TRAILER).append(op.id().value()).append('\n'));
        return text.toString();
    }
}
