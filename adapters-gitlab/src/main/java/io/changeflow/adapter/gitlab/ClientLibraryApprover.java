package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;

/** The long-standing way: the client library's approve call, which cannot carry check items. */
final class ClientLibraryApprover implements Approver {

    private final GitLabCalls calls;

    ClientLibraryApprover(GitLabCalls calls) {
        this.calls = calls;
    }

    @Override
    public void approve(String project, long iid, ApprovalBot bot) {
        calls.call("approve", () -> bot.api().getMergeRequestApi().approveMergeRequest(project, iid, null));
    }
}
