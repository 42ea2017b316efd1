package io.changeflow.application.port.out;

import java.util.List;
import java.util.Optional;

/**
 * A GitLab project's settings as Changeflow's bots see them, read for the setup check: the target branch, who may
 * merge into it, the merge method, merge trains, approvals and pipeline settings. Reads only, nothing is changed.
 */
public interface ProjectSetup {

    /** What a bot is to Changeflow. */
    enum BotRole {
        /** Creates branches, commits, merge requests, and merges. */
        AUTHOR,
        /** Approves merge requests. */
        APPROVER
    }

    /**
     * A bot's rights in the project.
     *
     * @param accessLevel        its role as GitLab's access level (30 Developer, 40 Maintainer, ...); 0 when not a member
     * @param mayMergeIntoTarget whether the target branch's protection lets it merge (true when it is not protected)
     */
    record BotRights(String account, BotRole role, int accessLevel, boolean mayMergeIntoTarget) {}

    /**
     * @param targetBranch         the branch merge requests go to (the project's default branch)
     * @param mergeMethod          GitLab's {@code merge_method}: {@code merge}, {@code rebase_merge} or {@code ff}
     * @param mergeTrains          {@code merge_trains_enabled}
     * @param pipelineMustSucceed  {@code only_allow_merge_if_pipeline_succeeds}
     * @param resetApprovalsOnPush {@code reset_approvals_on_push}; empty when the bots may not read the approval settings
     * @param bots                 the author bot first, then the approval bots
     */
    record ProjectSettings(String project, String targetBranch, String mergeMethod, boolean mergeTrains,
                           boolean pipelineMustSucceed, Optional<Boolean> resetApprovalsOnPush, List<BotRights> bots) {

        public ProjectSettings {
            bots = List.copyOf(bots);
        }
    }

    /**
     * Reads {@code project}'s settings.
     *
     * @throws ExternalCallException when GitLab cannot be read, or does not know the project (404)
     */
    ProjectSettings read(String project);
}
