package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.MergedCommit;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Finds a batch's merge request: the one recorded, or (when a crash came between opening it and
 * recording it) the one GitLab has for the batch's branch, which is then recorded; and, once it merged, which
 * members its merged commit does not bear (issue 36).
 */
final class BatchMergeRequests {

    private final Batches batches;
    private final Operations operations;
    private final Targets targets;
    private final MergeRequests mergeRequests;

    BatchMergeRequests(Batches batches, Operations operations, Targets targets, MergeRequests mergeRequests) {
        this.batches = batches;
        this.operations = operations;
        this.targets = targets;
        this.mergeRequests = mergeRequests;
    }

    Optional<MergeRequestRef> find(Batch batch) {
        if (batch.mergeRequest().isPresent()) {
            return batch.mergeRequest();
        }
        if (!(BatchContent.of(batch, operations, targets) instanceof BatchContent.Ready ready)) {
            return Optional.empty();
        }
        return find(batch, ready.project());
    }

    /**
     * The members of {@code batch} whose claim the merged commit of its merge request {@code mr} does not bear, with
     * why ({@link MergedCommit#notBorne}); empty when it bears them all. The merged commit is recorded for the merge
     * request ({@link io.changeflow.application.port.out.Operations#recordMergedCommit}). {@code mergedCommit}: the one
     * the merge's answer named, else it is read.
     *
     * @throws io.changeflow.application.port.out.ExternalCallException GitLab could not be read
     */
    Map<OperationId, String> notBorne(Batch batch, MergeRequestRef mr, Optional<String> mergedCommit) {
        var found = operations.findAll(batch.members()).stream()
                .collect(Collectors.toMap(Operation::id, Function.identity()));
        var members = batch.members().stream().map(found::get).filter(Objects::nonNull).toList();
        var bearing = MergedCommit.notBorne(mergeRequests, targets, mr, mergedCommit, members);
        // issue 37: the merge's commit, recorded before any member is written MERGED (deploys of main at a commit)
        bearing.commit().ifPresent(commit -> operations.recordMergedCommit(mr, commit));
        return bearing.notBorne();
    }

    /** Like {@link #find(Batch)} when the batch's project is known. */
    Optional<MergeRequestRef> find(Batch batch, String project) {
        if (batch.mergeRequest().isPresent()) {
            return batch.mergeRequest();
        }
        var found = mergeRequests.findBySourceBranch(project, MergeRequestTexts.batchBranchOf(batch.id()))
                .map(MergeRequests.RemoteMergeRequest::ref);
        found.ifPresent(mr -> batches.recordMergeRequest(batch.id(), mr));
        return found;
    }
}
