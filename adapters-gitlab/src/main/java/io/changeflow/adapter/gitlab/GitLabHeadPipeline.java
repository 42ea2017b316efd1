package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.MergeRequests.Pipeline;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.gitlab4j.api.GitLabApiException;
import org.gitlab4j.api.models.MergeRequest;

/**
 * A merge request's {@code head_pipeline} attributed to the commit it ran for, never to the merge request's {@code sha}.
 *
 * <p>GitLab's API answers with the stored association ({@code lib/api/entities/merge_request.rb}, 17.x to 19.1:
 * {@code expose :head_pipeline}), which moves only when a pipeline for the new head is created
 * ({@code app/workers/merge_requests/update_head_pipeline_worker.rb}); after a push that creates no pipeline (or before
 * it is created) it is the previous head's. GitLab's own check is {@code MergeRequest#diff_head_pipeline}
 * ({@code app/models/merge_request.rb}): the head pipeline counts only if it {@code matches_sha_or_source_sha?} the
 * head. The API's pipeline has no {@code source_sha}: a merged-results pipeline ran for a merge commit whose parents
 * are the target's commit and the head ({@code MergeRequests::MergeToRefService}), so it counts for the head whose
 * second parent it is. Anything else keeps its own sha, and {@link Pipeline#ranFor} says it is not the head's.
 */
final class GitLabHeadPipeline {

    private GitLabHeadPipeline() {
    }

    /**
     * {@code GET .../repository/commits/:sha} as the author bot, a read: the commit's {@code parent_ids}; empty when
     * GitLab does not know the commit (404 for the commit; a missing project stays an error).
     */
    static Function<String, List<String>> commitParents(GitLabCalls calls, GitLabBots bots, String project) {
        return sha -> calls.read("commitParents", () -> {
            try {
                var parents = bots.author().getCommitsApi().getCommit(project, sha).getParentIds();
                return parents == null ? List.<String>of() : List.copyOf(parents);
            } catch (GitLabApiException e) {
                if (e.getHttpStatus() == 404 && (e.getMessage() == null || !e.getMessage().contains("Project Not Found"))) {
                    return List.<String>of();
                }
                throw e;
            }
        });
    }

    /**
     * @param parentsOf the parent shas of a commit (one read of {@code GET .../repository/commits/:sha}), asked only
     *                  when the pipeline's own sha is not the merge request's head; empty when the commit is unknown
     */
    static Optional<Pipeline> of(MergeRequest mr, Function<String, List<String>> parentsOf) {
        var head = mr.getHeadPipeline();
        if (head == null) {
            return Optional.empty();
        }
        var id = head.getId() == null ? 0L : head.getId();
        var status = GitLabMergeAnswers.pipelineStatus(head);
        var ranFor = head.getSha() == null ? "" : head.getSha();
        var mrHead = mr.getSha();
        if (ranFor.isEmpty() || mrHead == null || mrHead.isBlank() || ranFor.equals(mrHead)) {
            return Optional.of(new Pipeline(id, ranFor, status));
        }
        var parents = parentsOf.apply(ranFor);
        var mergedResultOfHead = parents.size() == 2 && mrHead.equals(parents.get(1));
        return Optional.of(new Pipeline(id, mergedResultOfHead ? mrHead : ranFor, status));
    }
}
