package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 36, item 1: what a merge claims is read back from the merged commit's file, never inferred from "we merged
 * something". A grant is merged only when the grant file at the commit the merge put on the target branch
 * ({@link MergeRequests#mergedCommit}) holds exactly its line; a removal only when it no longer holds a line of the
 * subject. The same for a single request's merge request and for every member of a batch's.
 * Design: docs/workflow.md, "Claims are read from the merged commit".
 */
public final class MergedCommit {

    private static final String SINGLE_GRANT_ADVICE = "Look at the merge request on GitLab (its branch was changed after"
            + " Changeflow wrote it), then close this request and apply again.";
    private static final String SINGLE_REMOVAL_ADVICE = "a person removes the line.";
    private static final String MEMBER_GRANT_ADVICE = "Look at the batch's merge request on GitLab (its branch was changed"
            + " after Changeflow wrote it); an operator re-admits this change (its line is written again) or closes it.";
    private static final String MEMBER_REMOVAL_ADVICE = "an operator re-admits the removal (it takes the line out again)"
            + " or closes it.";

    private MergedCommit() {
    }

    /**
     * Why the merged commit of {@code mr} contradicts the claim about {@code grant} in {@code target}'s file (present
     * when {@code removes} is false and the line is missing, or when it is true and the line is still there); empty when
     * the merged commit agrees. {@code target} empty (it left the catalog): the file cannot be named, a contradiction.
     * Two GitLab reads: the merged commit, then the file at it.
     */
    public static Optional<String> contradiction(MergeRequests gitlab, MergeRequestRef mr, Optional<Target> target,
                                                 Grant grant, boolean removes) {
        return check(gitlab, mr, Optional.empty(), target, grant, removes).contradiction();
    }

    /**
     * What the merged commit of a merge request says about a claim: the commit GitLab names (empty when it names none)
     * and why it contradicts the claim (empty when it agrees).
     */
    public record Verdict(Optional<String> commit, Optional<String> contradiction) {}

    /**
     * {@link #contradiction}, with the merged commit read (issue 37: recorded for the merge, so a deploy report for the
     * default branch at a commit can tell which merges it holds). The same two GitLab reads, or only the file's when
     * {@code answered} names the merged commit (the merge's own answer, {@link MergeRequests#mergeWithCommit}).
     */
    public static Verdict check(MergeRequests gitlab, MergeRequestRef mr, Optional<String> answered,
                                Optional<Target> target, Grant grant, boolean removes) {
        if (target.isEmpty()) {
            return new Verdict(Optional.empty(), Optional.of(leftTheCatalog(mr)));
        }
        var commit = answered.or(() -> gitlab.mergedCommit(mr.project(), mr.iid()));
        if (commit.isEmpty()) {
            return new Verdict(commit, Optional.of(noMergedCommit(mr)));
        }
        var file = GrantFiles.read(gitlab, mr.project(), commit.get(), target.get());
        return new Verdict(commit, contradiction(mr, commit.get(), target.get(), file, grant, removes,
                removes ? SINGLE_REMOVAL_ADVICE : SINGLE_GRANT_ADVICE));
    }

    /**
     * The members of a merged batch whose claim the merged commit of the batch's merge request {@code mr} does not
     * bear, each with why (the file, the commit, the line found); empty when it bears every one. A grant is borne when
     * its file at the merged commit holds exactly its line, a removal when that file holds no line of its subject. A
     * member whose target left the catalog, or every member when GitLab names no merged commit, is not borne. GitLab
     * reads: the merged commit (unless {@code answered}, the merge's own answer, names it), then each member's file
     * once at it.
     *
     * @throws io.changeflow.application.port.out.ExternalCallException GitLab could not be read: nothing is decided
     */
    public static Bearing notBorne(MergeRequests gitlab, Targets targets, MergeRequestRef mr, Optional<String> answered,
                                   List<Operation> members) {
        var notBorne = new LinkedHashMap<OperationId, String>();
        var commit = answered.or(() -> gitlab.mergedCommit(mr.project(), mr.iid()));
        if (commit.isEmpty()) {
            members.forEach(member -> notBorne.put(member.id(), noMergedCommit(mr)));
            return new Bearing(commit, notBorne);
        }
        var files = new HashMap<String, GrantFile>();
        for (var member : members) {
            var target = targets.find(member.target());
            if (target.isEmpty()) {
                notBorne.put(member.id(), leftTheCatalog(mr));
                continue;
            }
            var file = files.computeIfAbsent(target.get().filePath(),
                    path -> GrantFiles.read(gitlab, mr.project(), commit.get(), target.get()));
            var removes = member.removedLine().isPresent();
            var grant = member.removedLine().orElseGet(() -> Grant.of(member.request()));
            contradiction(mr, commit.get(), target.get(), file, grant, removes,
                    removes ? MEMBER_REMOVAL_ADVICE : MEMBER_GRANT_ADVICE)
                    .ifPresent(why -> notBorne.put(member.id(), why));
        }
        return new Bearing(commit, notBorne);
    }

    /**
     * What the merged commit of a batch's merge request bears: the commit GitLab names (empty when it names none) and
     * the members it does not bear, each with why (empty when it bears them all).
     */
    public record Bearing(Optional<String> commit, Map<OperationId, String> notBorne) {
        public Bearing {
            notBorne = Collections.unmodifiableMap(new LinkedHashMap<>(notBorne));
        }
    }

    private static Optional<String> contradiction(MergeRequestRef mr, String commit, Target target, GrantFile file,
                                                  Grant grant, boolean removes, String advice) {
        var path = target.filePath();
        if (!removes && !file.holds(grant)) {
            return Optional.of("Merge request !" + mr.iid() + " is merged, but " + path + " at its merged commit "
                    + commit + " does not hold the line of " + grant.subject().value()
                    + file.editedLineOf(grant).map(line -> " (it holds \"" + line + "\" instead)").orElse("")
                    + ": the grant is not in effect and is not reported so. " + advice);
        }
        if (removes && file.grantOf(grant.subject()).isPresent()) {
            return Optional.of("Merge request !" + mr.iid() + " is merged, but " + path + " at its merged commit "
                    + commit + " still holds a line of " + grant.subject().value()
                    + ": the access was not removed and is not reported so; " + advice);
        }
        return Optional.empty();
    }

    private static String leftTheCatalog(MergeRequestRef mr) {
        return "Merge request !" + mr.iid() + " is merged, but its target is no longer in the catalog, so "
                + "the grant file its merged commit holds cannot be read: it is not reported in effect.";
    }

    private static String noMergedCommit(MergeRequestRef mr) {
        return "Merge request !" + mr.iid() + " reads as merged, but GitLab names no merged commit for it, "
                + "so what the merge wrote cannot be read: it is not reported in effect.";
    }
}
