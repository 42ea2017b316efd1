package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;

/**
 * One way of approving a merge request as an approval bot. Failures leave as the port's
 * {@code ExternalCallException} with GitLab's real status (401 stays 401), whichever way was used.
 */
interface Approver {

    void approve(String project, long iid, ApprovalBot bot);
}
