package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import java.util.Optional;

/**
 * One way of approving a merge request as an approval bot. Already approved is success (GitLab 19.x answers
 * 304 Not Modified). Failures leave as the port's {@code ExternalCallException} with GitLab's real status
 * (401 stays 401, 403 "may not approve" stays 403), whichever way was used.
 */
interface Approver {

    /** GitLab 19.x's answer to an approval the account already gave. */
    int ALREADY_APPROVED = 304;

    /**
     * @param sha the head approved, sent as {@code sha}; null: none sent
     * @return the approval state GitLab's answer carries ({@link ApprovalAnswers}); empty for an answer without it (304)
     */
    Optional<ApprovalState> approve(String project, long iid, ApprovalBot bot, String sha);
}
