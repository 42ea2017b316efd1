package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.request.PipelinePolicy;
import java.util.Optional;

/**
 * The pipeline of a merge request's current head as its target's {@link PipelinePolicy} reads it: the one rule behind
 * every wait for a pipeline (the create step, a batch's checks, after a rebase or a regeneration) and behind the merge
 * evidence ({@link MergeEvidence}). Only the head's own pipeline speaks, and only once the merge request reports its
 * branch's real head. What counts, by policy: docs/external-systems-gitlab.md, "Per-target pipeline policy".
 */
public final class HeadPipeline {

    /** What one look at the head's pipeline says. */
    public sealed interface Look {
        /** Nothing to decide yet: the merge request lags behind its branch, the head has no pipeline yet, or it runs. */
        record Waiting() implements Look {}

        /**
         * Nothing left to wait for: it passed, or the policy counts it (manual, skipped), or the target has no CI.
         *
         * @param pipeline the pipeline that counts; empty for a target without CI (none was read)
         */
        record Counts(Optional<Pipeline> pipeline) implements Look {}

        /** The head's pipeline failed (deterministic). */
        record Failed(Pipeline pipeline) implements Look {}

        /** The head's pipeline will not reach a result by itself and the policy does not count it: a person acts. */
        record NotRun(Pipeline pipeline) implements Look {}
    }

    private HeadPipeline() {
    }

    /**
     * Reads the branch head and (unless the target has no CI) the head pipeline of {@code mr}, whose merge request
     * {@code remote} was read just now.
     *
     * <p>GitLab calls per look, besides the read of {@code remote}: when that read carries the head pipeline
     * ({@link RemoteMergeRequest#headPipelineRead}, as GitLab's does), a look that waits anyway (no pipeline for the head
     * yet, or it runs) makes none, and every other look one, the branch head: nothing counts, fails or stops for a
     * person unless the merge request reports its branch's real head. Otherwise the branch head, then the pipeline.
     */
    public static Look look(MergeRequests mergeRequests, MergeRequestRef mr, RemoteMergeRequest remote, PipelinePolicy policy) {
        var head = remote.sha() == null ? "" : remote.sha();
        if (head.isEmpty()) {
            return new Look.Waiting();
        }
        if (remote.headPipelineRead()) {
            var look = remote.headPipeline().map(pipeline -> of(pipeline, head, policy)).orElseGet(() -> withoutPipeline(policy));
            return look instanceof Look.Waiting || onBranchHead(mergeRequests, mr, head) ? look : new Look.Waiting();
        }
        if (!onBranchHead(mergeRequests, mr, head)) {
            return new Look.Waiting();
        }
        if (!policy.awaitsPipeline()) {
            return new Look.Counts(Optional.empty());
        }
        return mergeRequests.headPipeline(mr.project(), mr.iid()).map(pipeline -> of(pipeline, head, policy))
                .orElseGet(() -> withoutPipeline(policy));
    }

    /** Whether {@code mr}'s source branch is at {@code head} in the repository now (one GitLab call). */
    private static boolean onBranchHead(MergeRequests mergeRequests, MergeRequestRef mr, String head) {
        return mergeRequests.branchHead(mr.project(), mr.sourceBranch()).equals(Optional.of(head));
    }

    /** The table above for {@code pipeline}, which counts only if it ran for {@code head}. */
    public static Look of(Pipeline pipeline, String head, PipelinePolicy policy) {
        if (!policy.awaitsPipeline()) {
            return new Look.Counts(Optional.empty());
        }
        if (!pipeline.ranFor(head)) {
            return new Look.Waiting();
        }
        return switch (pipeline.status()) {
            case PASSED -> new Look.Counts(Optional.of(pipeline));
            case MANUAL, SKIPPED -> policy == PipelinePolicy.MANUAL_COUNTS ? new Look.Counts(Optional.of(pipeline))
                    : new Look.NotRun(pipeline);
            case CANCELED -> new Look.NotRun(pipeline);
            case FAILED -> new Look.Failed(pipeline);
            // Unknown is never passed; watched like running, its timeouts end it in "pending" for a person.
            case RUNNING, UNKNOWN -> new Look.Waiting();
        };
    }

    /** The table above for a head without a pipeline (yet): it counts only where the policy awaits none. */
    public static Look withoutPipeline(PipelinePolicy policy) {
        return policy.awaitsPipeline() ? new Look.Waiting() : new Look.Counts(Optional.empty());
    }

    /** The look as an observation for a {@link PipelineWatch}: counts is passed, failed and not run are failed. */
    public static PollObservation observation(Look look) {
        return switch (look) {
            case Look.Waiting waiting -> PollObservation.RUNNING;
            case Look.Counts counts -> PollObservation.PASSED;
            case Look.Failed failed -> PollObservation.FAILED;
            case Look.NotRun notRun -> PollObservation.FAILED;
        };
    }

    /** For the history: why the head's pipeline counts ("passed", or what the policy let count). */
    public static String counted(Look.Counts counts, PipelinePolicy policy) {
        if (counts.pipeline().isEmpty()) {
            return "the target has no CI (pipeline: " + policy.settingName() + "): no pipeline is awaited";
        }
        var pipeline = counts.pipeline().get();
        return switch (pipeline.status()) {
            case MANUAL -> "pipeline " + pipeline.id() + " waits on a manual job, which counts for this target (pipeline: "
                    + policy.settingName() + ")";
            case SKIPPED -> "pipeline " + pipeline.id() + " was skipped, which counts for this target (pipeline: "
                    + policy.settingName() + ")";
            default -> "pipeline " + pipeline.id() + " passed";
        };
    }

    /** For a person: why the pipeline of {@code mr}'s head proves nothing, and what to do about it. */
    public static String notRun(MergeRequestRef mr, Pipeline pipeline, PipelinePolicy policy) {
        var what = switch (pipeline.status()) {
            case MANUAL -> "waits on a manual job";
            case SKIPPED -> "was skipped";
            default -> "was canceled";
        };
        var advice = pipeline.status() == PipelineStatus.CANCELED
                ? "Run it again on GitLab, then re-trigger."
                : "This target requires a passed pipeline (pipeline: " + policy.settingName() + "): run the pipeline's "
                + "jobs on GitLab, then re-trigger (a target whose project works this way can be configured with "
                + "pipeline: manual-counts).";
        return "The pipeline " + pipeline.id() + " of merge request !" + mr.iid() + "'s head " + shortSha(pipeline.sha())
                + " " + what + ": it did not run to a result, and nothing is merged on it. " + advice;
    }

    /**
     * At the pending deadline: the note "no pipeline ran for this commit" when {@code remote} (read with its head
     * pipeline) shows no pipeline of its head's own and the policy awaits one; empty when a pipeline of its own is still
     * pending (or the read does not tell), which is a pipeline a person looks at instead.
     */
    public static Optional<String> noOwnPipeline(MergeRequestRef mr, RemoteMergeRequest remote, PipelinePolicy policy,
                                                 String deadline) {
        var head = remote.sha() == null ? "" : remote.sha();
        var ownPipeline = remote.headPipeline().filter(pipeline -> pipeline.ranFor(head)).isPresent();
        if (!remote.headPipelineRead() || ownPipeline || head.isEmpty() || !policy.awaitsPipeline()) {
            return Optional.empty();
        }
        return Optional.of(noPipeline(mr, head, remote.headPipeline(), deadline));
    }

    /**
     * For a person: no pipeline ran for {@code mr}'s head {@code head} within the pending deadline ({@code deadline}),
     * and what GitLab reported instead ({@code reported}: the stored head pipeline, an earlier head's, if any).
     */
    public static String noPipeline(MergeRequestRef mr, String head, Optional<Pipeline> reported, String deadline) {
        var instead = reported.map(pipeline -> " GitLab reports pipeline " + pipeline.id() + " of the earlier commit "
                + shortSha(pipeline.sha()) + ", which proves nothing about this one.").orElse("");
        return "No pipeline ran for this commit: merge request !" + mr.iid() + "'s head " + shortSha(head)
                + " got no pipeline of its own by the pending deadline (" + deadline + " after the wait for it timed out), and "
                + "nothing is merged without one." + instead
                + " GitLab creates none for a push its CI rules skip (rules:changes, [skip ci]): run a pipeline for the "
                + "merge request on GitLab, then re-trigger the request, or close it.";
    }

    private static String shortSha(String sha) {
        return sha.length() > 8 ? sha.substring(0, 8) : sha;
    }
}
