package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.operation.Operation;
import java.lang.System.Logger.Level;

/**
 * Issue 36 and finding S8 (issue 30): a request whose create step ended (closed, failed, superseded) after GitLab opened
 * its merge request but before the request recorded it has one on GitLab that it does not know. Whoever closes such a
 * request (an operator's close, the close step) looks it up by the request's own branch
 * ({@link MergeRequestTexts#branchOf}), records it, and closes it like a recorded one. One GitLab read when nothing is
 * recorded; none when a merge request is recorded, for a removal (its line goes out in a removal round's batch), or
 * when the target left the catalog.
 */
public final class UnrecordedMergeRequest {

    private static final System.Logger LOG = System.getLogger(UnrecordedMergeRequest.class.getName());

    private final Operations operations;
    private final Targets targets;
    private final MergeRequests mergeRequests;

    public UnrecordedMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests) {
        this.operations = operations;
        this.targets = targets;
        this.mergeRequests = mergeRequests;
    }

    /**
     * {@code op} with the merge request found on GitLab by its branch recorded (recording writes no state, so the
     * version stays and a write pinned to {@code op} still holds); {@code op} itself when it records one already or
     * nothing is found. Throws what {@link MergeRequests#findBySourceBranch} throws.
     */
    public Operation recordFoundOnGitLab(Operation op, String why) {
        if (op.mergeRequest().isPresent() || op.kind().removes()) {
            return op;
        }
        var target = targets.find(op.target());
        if (target.isEmpty()) {
            return op;
        }
        var found = mergeRequests.findBySourceBranch(target.get().project(), MergeRequestTexts.branchOf(op.id()));
        if (found.isEmpty()) {
            return op;
        }
        LOG.log(Level.INFO, () -> why + " " + op.id() + ": found its merge request !" + found.get().iid() + " on GitLab");
        operations.recordMergeRequest(op.id(), found.get().ref());
        return operations.find(op.id()).orElse(op);
    }
}
