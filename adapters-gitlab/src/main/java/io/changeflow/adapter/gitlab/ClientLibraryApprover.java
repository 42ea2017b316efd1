package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import java.util.Optional;
import org.gitlab4j.api.GitLabApiException;

/** The long-standing way: the client library's approve call, which cannot carry check items. */
final class ClientLibraryApprover implements Approver {

    private final GitLabCalls calls;

    ClientLibraryApprover(GitLabCalls calls) {
        this.calls = calls;
    }

    @Override
    public Optional<ApprovalState> approve(String project, long iid, ApprovalBot bot, String sha) {
        return calls.call("approve", () -> {
            try {
                return ApprovalAnswers.ofApproval(bot.api().getMergeRequestApi().approveMergeRequest(project, iid, sha));
            } catch (GitLabApiException e) {
                if (e.getHttpStatus() == ALREADY_APPROVED) {
                    return Optional.<ApprovalState>empty();
                }
                throw e;
            }
        });
    }
}
