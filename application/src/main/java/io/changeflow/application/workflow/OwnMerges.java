package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.CommitSummary;
import io.changeflow.application.workflow.ApproveAndMerge.Subject;
import io.changeflow.domain.operation.MergeRequestRef;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Whether a rebase conflict was caused by Changeflow's own merges only (issue 36, "our merges queue"): read from the
 * target branch's history, never inferred from our records. Every commit on the target branch since the merge request's
 * branch left it that changed one of the subject's files carries a {@value MergeRequestTexts#OPERATION_TRAILER}line
 * (the commits Changeflow writes, single or batch, and GitLab keeps when it merges or rebases them). A person's commit,
 * no such commit at all (the cause is unknown), more commits than one read lists, a file the subject cannot name, or a
 * history GitLab refuses to list: not ours, the conflict counts. Design: docs/workflow.md, "Our own merges queue".
 */
final class OwnMerges {

    /** At most this many commits per file are listed: more since the branch point is not judged (it counts). */
    static final int LISTED = 100;

    private static final System.Logger LOG = System.getLogger(OwnMerges.class.getName());

    private final MergeRequests mergeRequests;

    OwnMerges(MergeRequests mergeRequests) {
        this.mergeRequests = mergeRequests;
    }

    /**
     * Whether every commit on {@code onto} that {@code mr}'s branch lacks and that changed one of {@code subject}'s files
     * is Changeflow's own, and there is at least one. One GitLab read per file; a transient failure escapes (the step is
     * run again), a refusal answers false.
     */
    boolean only(MergeRequestRef mr, String onto, Subject subject) {
        var files = subject.changedFiles();
        if (files.isEmpty()) {
            return false;
        }
        var seen = 0;
        for (var path : files) {
            List<CommitSummary> commits;
            try {
                commits = mergeRequests.commitsOnlyOn(mr.project(), onto, mr.sourceBranch(), path, LISTED);
            } catch (ExternalCallException e) {
                if (e.isTransient()) {
                    throw e;
                }
                LOG.log(Level.WARNING, () -> subject.describe() + ": the history of " + path + " on " + onto
                        + " could not be read (" + e.getMessage() + "); the conflict counts");
                return false;
            }
            if (commits.size() >= LISTED || !commits.stream().allMatch(OwnMerges::isOurs)) {
                return false;
            }
            seen += commits.size();
        }
        return seen > 0;
    }

    /** A commit Changeflow wrote: its message holds a line naming an operation. */
    static boolean isOurs(CommitSummary commit) {
        return commit.message().lines().anyMatch(line -> line.startsWith(MergeRequestTexts.OPERATION_TRAILER)
                && line.length() > MergeRequestTexts.OPERATION_TRAILER.length());
    }
}
