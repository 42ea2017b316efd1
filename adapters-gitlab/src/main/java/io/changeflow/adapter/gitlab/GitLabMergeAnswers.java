package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import java.util.Locale;
import java.util.function.Supplier;
import org.gitlab4j.api.models.MergeRequest;
import org.gitlab4j.api.models.Pipeline;
import org.gitlab4j.api.models.Project;

/**
 * Reads GitLab's answers about merging by their reason, the same on every GitLab version. The HTTP status of a
 * refused merge differs by version (17/18.x: 405 for not open, draft, discussions, CI and approvals, 422 "Branch
 * cannot be merged" for a conflict, {@code unchecked} or {@code need_rebase}; 19.x: 405 for every "not
 * mergeable", 400 without {@code sha}; both: 409 for a stale {@code sha}), so a refusal is read from the merge
 * request as GitLab reports it right after: {@code detailed_merge_status}, {@code has_conflicts},
 * {@code merge_error}, {@code rebase_in_progress}, and the project's {@code merge_method}. The table of answers is
 * in docs/external-systems-gitlab.md.
 */
final class GitLabMergeAnswers {

    private GitLabMergeAnswers() {
    }

    /**
     * The reason a merge GitLab refused with {@code httpStatus} (405, 406 or 422) was refused, read from the merge
     * request {@code mr} as GitLab reports it after the refusal.
     *
     * @param mergeMethod the project's merge method (null when unknown), asked for only when the merge request's own
     *                    state does not explain the refusal (one GitLab call saved on every other refusal)
     */
    static MergeResult refusal(int httpStatus, MergeRequest mr, Supplier<Project.MergeMethod> mergeMethod) {
        var state = mr.getState() == null ? "" : mr.getState().toLowerCase(Locale.ROOT);
        if (state.equals("merged") || state.equals("locked") || Boolean.TRUE.equals(mr.getRebaseInProgress())) {
            // merged meanwhile (the caller's next read sees it) or being merged or rebased: read again
            return MergeResult.CANNOT_BE_MERGED_YET;
        }
        if (!state.equals("opened") && !state.equals("reopened")) {
            return MergeResult.BLOCKED;
        }
        if (Boolean.TRUE.equals(mr.getHasConflicts())) {
            return MergeResult.NOT_MERGEABLE;
        }
        var expected = MergeResult.expectedFor(mr.getDetailedMergeStatus());
        if (expected.isPresent()) {
            return expected.get();
        }
        // Every check passed and the merge itself failed: MergeService set merge_error (a server hook, a push rule) and
        // the API answered 422 "Branch cannot be merged" (lib/api/merge_requests.rb, execute_immediate_merge!, 17.x to
        // 19.1). has_conflicts is true only for cannot_be_merged: this is no conflict, and a rebase would not help.
        if (mr.getMergeError() != null && !mr.getMergeError().isBlank()) {
            return MergeResult.REFUSED_AFTER_CHECKS;
        }
        // GitLab says mergeable (or nothing) and still refused. A fast-forward project refuses a merge request
        // whose target moved on with 422 "Branch cannot be merged" on 17/18 (need_rebase once it has checked).
        if (httpStatus == 422) {
            var method = mergeMethod.get();
            if (method == Project.MergeMethod.FF || method == Project.MergeMethod.REBASE_MERGE) {
                return MergeResult.NOT_MERGEABLE;
            }
        }
        // Otherwise its status has not caught up with what made it refuse: read again, counted by the caller.
        return MergeResult.CANNOT_BE_MERGED_YET;
    }

    /**
     * GitLab's pipeline states, every one explicitly. gitlab4j reads a status it does not know (e.g.
     * {@code waiting_for_callback}) as null: that is {@link PipelineStatus#UNKNOWN}, never running or passed.
     */
    static PipelineStatus pipelineStatus(Pipeline pipeline) {
        if (pipeline.getStatus() == null) {
            return PipelineStatus.UNKNOWN;
        }
        return switch (pipeline.getStatus()) {
            case SUCCESS -> PipelineStatus.PASSED;
            case FAILED -> PipelineStatus.FAILED;
            case MANUAL -> PipelineStatus.MANUAL;
            case SKIPPED -> PipelineStatus.SKIPPED;
            case CANCELED, CANCELING -> PipelineStatus.CANCELED;
            case CREATED, WAITING_FOR_RESOURCE, PREPARING, PENDING, RUNNING, SCHEDULED -> PipelineStatus.RUNNING;
        };
    }
}
