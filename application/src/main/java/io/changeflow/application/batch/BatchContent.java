package io.changeflow.application.batch;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.application.workflow.GrantEnds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * What a batch's merge request carries: the members (read in one query, in claim order), the one
 * GitLab project they all change, and per target file the members' grants and the lines removals take out
 * (expiries, give-ups, revocations: exactly the removed grant's line), so that members touching the same
 * file are combined into one file content.
 */
sealed interface BatchContent {

    /** The members can go into one merge request. */
    record Ready(String project, List<Operation> members, List<FileGrants> files) implements BatchContent {}

    /** They cannot, for a reason that would not change by trying again (deterministic). */
    record Unmergeable(String reason) implements BatchContent {}

    /** One target's file, the grants the batch adds to it and the lines it removes (expiries, revocations). */
    record FileGrants(Target target, List<Grant> grants, List<Grant> removed) {

        /**
         * Issue 36: why the removals of this file cannot go ahead on {@code file}: a removed grant's subject has a
         * line there that is not the grant's (edited by hand: another until or operation, or text the format cannot
         * parse), which a removal neither takes out nor may claim removed. Empty when every removed line is the
         * grant's own or already gone.
         */
        Optional<String> handEdited(io.changeflow.domain.request.GrantFile file) {
            for (var grant : removed) {
                var line = file.editedLineOf(grant);
                if (line.isPresent()) {
                    return Optional.of("the line of " + grant.subject() + " in " + target.filePath() + " on the target"
                            + " branch was edited by hand (\"" + line.get() + "\", the grant's is \"" + grant.line()
                            + "\"); nothing was removed and the subject still has access: an operator reverts the edit"
                            + " and re-triggers the removal, or adopts the edited line");
                }
            }
            return Optional.empty();
        }

        /** True when the file already holds every grant and none of the removed lines. */
        boolean doneIn(io.changeflow.domain.request.GrantFile file) {
            return grants.stream().allMatch(file::holds) && removed.stream().noneMatch(file::holds);
        }
    }

    /**
     * The content as a reader of its project, files and targets sees it: a member of a duration whose end is not fixed
     * yet (its line never written) adds no grant. A writer of the files uses {@link #toWrite}.
     */
    static BatchContent of(Batch batch, Operations operations, Targets targets) {
        return of(batch, operations, targets, UnaryOperator.identity());
    }

    /**
     * The content to write at {@code writtenAt}: a member of a duration (issue 32 item 3) gets its end fixed now, before
     * its line is written, unless it was fixed at an earlier write ({@link GrantEnds}).
     */
    static BatchContent toWrite(Batch batch, Operations operations, Targets targets, Instant writtenAt) {
        return of(batch, operations, targets, op -> GrantEnds.fixedBeforeWriting(operations, op, writtenAt));
    }

    private static BatchContent of(Batch batch, Operations operations, Targets targets, UnaryOperator<Operation> ends) {
        var found = operations.findAll(batch.members()).stream()
                .collect(Collectors.toMap(Operation::id, Function.identity()));
        var members = new ArrayList<Operation>(batch.members().size());
        for (OperationId id : batch.members()) {
            var op = found.get(id);
            if (op == null) {
                return new Unmergeable("its member " + id + " does not exist");
            }
            members.add(op.kind().removes() ? op : ends.apply(op));
        }
        var files = new LinkedHashMap<String, List<Grant>>();
        var removals = new LinkedHashMap<String, List<Grant>>();
        var targetOfFile = new LinkedHashMap<String, Target>();
        String project = null;
        for (var op : members) {
            var target = targets.find(op.target());
            if (target.isEmpty()) {
                return new Unmergeable("the target " + op.target() + " of " + op.id() + " is no longer in the catalog");
            }
            if (project == null) {
                project = target.get().project();
            } else if (!project.equals(target.get().project())) {
                return new Unmergeable("its members change more than one GitLab project (" + project + ", "
                        + target.get().project() + "); a partition must lie within one project");
            }
            targetOfFile.putIfAbsent(target.get().filePath(), target.get());
            var added = files.computeIfAbsent(target.get().filePath(), path -> new ArrayList<>());
            var removed = removals.computeIfAbsent(target.get().filePath(), path -> new ArrayList<>());
            if (op.removedLine().isPresent()) {
                removed.add(op.removedLine().get());
            } else if (!op.request().endOpen()) {
                added.add(Grant.of(op.request()));
            }
        }
        if (project == null) {
            return new Unmergeable("it has no members");
        }
        var grants = new ArrayList<FileGrants>(files.size());
        files.forEach((path, added) -> grants.add(new FileGrants(targetOfFile.get(path), List.copyOf(added),
                List.copyOf(removals.get(path)))));
        return new Ready(project, List.copyOf(members), List.copyOf(grants));
    }
}
