package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.PushRefused;
import java.util.List;
import org.gitlab4j.api.GitLabApiException;

/**
 * A push GitLab's push rule refuses (issue 35): the commits and branches APIs answer 400 with the rule's message
 * (ee/lib/ee/gitlab/checks/push_rules/commit_check.rb, branch_check.rb, ee/lib/ee/gitlab/checks/diff_check.rb; 17.x
 * to 19.1-pre), which leaves the adapter as {@link PushRefused} carrying that message.
 */
final class GitLabPushRefusals {

    /** The push rules' messages as GitLab words them. */
    private static final List<String> MESSAGES = List.of("Commit message does not follow the pattern",
            "Commit message contains the forbidden pattern", "Commit message must contain a DCO signoff",
            "Branch name does not follow the pattern", "Author's email '", "Committer's email '", "was prohibited by the pattern",
            "is not a member of team");

    private GitLabPushRefusals() {
    }

    /** {@code call}; a 400 whose message is a push rule's leaves as {@link PushRefused} with GitLab's message. */
    static <T> T of(String operation, GitLabCalls.Call<T> call) throws Exception {
        try {
            return call.run();
        } catch (GitLabApiException e) {
            var message = e.getMessage();
            if (e.getHttpStatus() == 400 && message != null && MESSAGES.stream().anyMatch(message::contains)) {
                throw new PushRefused(GitLabCalls.SYSTEM, operation, message, e);
            }
            throw e;
        }
    }
}
