package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.PipelinePolicy;
import java.util.Locale;
import java.util.Optional;

/**
 * What the reads made immediately before a merge prove about the merge request's current head: merge only on
 * evidence, never on an earlier observation. A merge is allowed only when the merge request reports its branch's real
 * head, GitLab names no reason against it and that head's own pipeline counts ({@link HeadPipeline}); the merge then
 * pins that sha. The reads and the GitLab behaviour behind them: docs/external-systems-gitlab.md, "Approving and merging".
 */
final class MergeEvidence {

    /** What the reads say. */
    sealed interface Verdict {
        /** The head {@code sha} is the branch's, its pipeline passed, GitLab says nothing against merging. */
        record Mergeable(String sha) implements Verdict {}

        /** The merge request still reports an older head than its branch has: GitLab has not caught up with a push. */
        record StaleHead(String reported, Optional<String> branchHead) implements Verdict {}

        /** GitLab reports a reason it would refuse the merge ({@link MergeResult#expectedFor}). */
        record Refused(MergeResult reason, String detailedMergeStatus) implements Verdict {}

        /** The head's pipeline has not answered yet (none yet, or still running). */
        record PipelineRunning() implements Verdict {}

        /** The head's pipeline failed. */
        record PipelineFailed(Pipeline pipeline) implements Verdict {}

        /** The head's pipeline will not answer by itself (manual, skipped, canceled). */
        record PipelineNotRun(Pipeline pipeline) implements Verdict {}
    }

    private MergeEvidence() {
    }

    /** The verdict on {@code remote} (read just now), reading the branch head and the head pipeline. */
    static Verdict read(MergeRequests mergeRequests, MergeRequestRef mr, RemoteMergeRequest remote, PipelinePolicy policy) {
        var head = remote.sha() == null ? "" : remote.sha();
        var branchHead = mergeRequests.branchHead(mr.project(), mr.sourceBranch());
        if (head.isEmpty() || !branchHead.equals(Optional.of(head))) {
            return new Verdict.StaleHead(head, branchHead);
        }
        var expected = MergeResult.expectedFor(remote.detailedMergeStatus());
        var pipelineSpeaks = expected.filter(r -> r == MergeResult.PIPELINE_NOT_PASSED || r == MergeResult.PIPELINE_RUNNING);
        if (expected.isPresent() && pipelineSpeaks.isEmpty()) {
            return new Verdict.Refused(expected.get(), remote.detailedMergeStatus());
        }
        var pipeline = policy.awaitsPipeline() ? mergeRequests.headPipeline(remote) : Optional.<Pipeline>empty();
        var verdict = ofPipeline(pipeline.map(found -> HeadPipeline.of(found, head, policy))
                .orElseGet(() -> HeadPipeline.withoutPipeline(policy)), head);
        if (verdict instanceof Verdict.Mergeable && pipelineSpeaks.isPresent()) {
            var passed = pipeline.filter(p -> p.status() == MergeRequests.PipelineStatus.PASSED).isPresent();
            if (passed || pipelineSpeaks.get() == MergeResult.PIPELINE_RUNNING) {
                // GitLab still says CI is in the way of a head whose pipeline passed (it has not caught up yet), or a
                // pipeline the policy does not await still runs: GitLab settles it, then merging goes on.
                return new Verdict.Refused(MergeResult.CANNOT_BE_MERGED_YET, remote.detailedMergeStatus());
            }
            // The policy counts the head (manual, skipped, no CI) but the project requires a passed pipeline.
            return new Verdict.Refused(MergeResult.BLOCKED, remote.detailedMergeStatus());
        }
        return verdict;
    }

    /** The verdict of the head pipeline alone, as {@code look} reads it under the target's policy. */
    static Verdict ofPipeline(HeadPipeline.Look look, String head) {
        return switch (look) {
            case HeadPipeline.Look.Counts counts -> new Verdict.Mergeable(head);
            case HeadPipeline.Look.Waiting waiting -> new Verdict.PipelineRunning();
            case HeadPipeline.Look.Failed failed -> new Verdict.PipelineFailed(failed.pipeline());
            case HeadPipeline.Look.NotRun notRun -> new Verdict.PipelineNotRun(notRun.pipeline());
        };
    }

    /** For a person: what GitLab's {@code detailed_merge_status} says must happen before the merge request can be merged. */
    static String blocked(MergeRequestRef mr, String detailedMergeStatus) {
        var status = detailedMergeStatus == null ? "" : detailedMergeStatus.trim().toLowerCase(Locale.ROOT);
        var why = switch (status) {
            case "draft_status" -> "it is a draft: someone marks it ready";
            case "discussions_not_resolved" -> "its discussions are not resolved: someone resolves them";
            case "blocked_status", "merge_request_blocked" -> "it is blocked by another merge request: that one is merged first";
            case "requested_changes" -> "a reviewer requested changes: the reviewer approves or the request is closed";
            case "not_open" -> "it is not open on GitLab";
            case "status_checks_must_pass", "external_status_checks" -> "its external status checks have not passed";
            case "jira_association_missing" -> "its title or description must name a Jira issue";
            case "security_policy_violations", "security_policy_pipeline_check", "policies_denied" ->
                    "a security policy does not allow it";
            case "commits_status" -> "its source branch is missing or has no commits";
            case "merge_time" -> "it may only be merged after a time set on it";
            case "locked_paths", "locked_lfs_files" -> "it changes files locked by another user";
            case "title_regex" -> "its title does not match the project's required pattern";
            case "ci_must_pass" -> "the project requires a passed pipeline ('Pipelines must succeed') and GitLab does not "
                    + "count the head's pipeline as passed (it waits on a manual job, was skipped, or the project has no CI, "
                    + "which the target's pipeline policy accepts): someone runs the pipeline or changes the project setting";
            default -> "GitLab reports it as '" + detailedMergeStatus + "'";
        };
        return "GitLab refuses to merge merge request !" + mr.iid() + ": " + why + "; then re-trigger the request.";
    }
}
