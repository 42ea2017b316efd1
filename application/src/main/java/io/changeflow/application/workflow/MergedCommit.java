package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.Target;
import java.util.Optional;

/**
 * Issue 36, item 1: what a merge claims is read back from the merged commit's file, never inferred from "we merged
 * something". A grant is merged only when the grant file at the commit the merge put on the target branch
 * ({@link MergeRequests#mergedCommit}) holds exactly its line; a removal only when it no longer holds the line.
 * Design: docs/workflow.md, "Claims are read from the merged commit".
 */
public final class MergedCommit {

    private MergedCommit() {
    }

    /**
     * What the merged commit of a merge request says about a claim: the commit GitLab names (empty when it names none)
     * and why it contradicts the claim (empty when it agrees).
     */
    public record Verdict(Optional<String> commit, Optional<String> contradiction) {}

    /**
     * {@link #contradiction}, with the merged commit read (issue 37: recorded for the merge, so a deploy report for the
     * default branch at a commit can tell which merges it holds). The same two GitLab reads.
     */
    public static Verdict check(MergeRequests gitlab, MergeRequestRef mr, Optional<Target> target, Grant grant,
                                boolean removes) {
        if (target.isEmpty()) {
            return new Verdict(Optional.empty(), contradiction(gitlab, mr, target, grant, removes));
        }
        var commit = gitlab.mergedCommit(mr.project(), mr.iid());
        return new Verdict(commit, contradiction(gitlab, mr, commit, target.get(), grant, removes));
    }

    /**
     * Why the merged commit of {@code mr} contradicts the claim about {@code grant} in {@code target}'s file (present
     * when {@code removes} is false and the line is missing, or when it is true and the line is still there); empty when
     * the merged commit agrees. {@code target} empty (it left the catalog): the file cannot be named, a contradiction.
     * Two GitLab reads: the merged commit, then the file at it.
     */
    public static Optional<String> contradiction(MergeRequests gitlab, MergeRequestRef mr, Optional<Target> target,
                                                 Grant grant, boolean removes) {
        if (target.isEmpty()) {
            return Optional.of("Merge request !" + mr.iid() + " is merged, but its target is no longer in the catalog, so "
                    + "the grant file its merged commit holds cannot be read: it is not reported in effect.");
        }
        return contradiction(gitlab, mr, gitlab.mergedCommit(mr.project(), mr.iid()), target.get(), grant, removes);
    }

    private static Optional<String> contradiction(MergeRequests gitlab, MergeRequestRef mr, Optional<String> commit,
                                                  Target target, Grant grant, boolean removes) {
        if (commit.isEmpty()) {
            return Optional.of("Merge request !" + mr.iid() + " reads as merged, but GitLab names no merged commit for it, "
                    + "so what the merge wrote cannot be read: it is not reported in effect.");
        }
        var path = target.filePath();
        var file = GrantFiles.read(gitlab, mr.project(), commit.get(), target);
        if (!removes && !file.holds(grant)) {
            return Optional.of("Merge request !" + mr.iid() + " is merged, but " + path + " at its merged commit "
                    + commit.get() + " does not hold the line of " + grant.subject().value()
                    + file.editedLineOf(grant).map(line -> " (it holds \"" + line + "\" instead)").orElse("")
                    + ": the grant is not in effect and is not reported so. Look at the merge request on GitLab (its "
                    + "branch was changed after Changeflow wrote it), then close this request and apply again.");
        }
        if (removes && file.grantOf(grant.subject()).isPresent()) {
            return Optional.of("Merge request !" + mr.iid() + " is merged, but " + path + " at its merged commit "
                    + commit.get() + " still holds a line of " + grant.subject().value()
                    + ": the access was not removed and is not reported so; a person removes the line.");
        }
        return Optional.empty();
    }
}
