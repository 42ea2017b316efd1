package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import io.changeflow.application.settings.Settings;
import java.util.Optional;

/**
 * The one place a merge request gets approved. {@code approver.mode} is read on every call, so switching
 * between the client library and the direct HTTP call with check items needs no restart; callers see the
 * same exception semantics either way.
 */
final class BotApproval {

    private final Settings settings;
    private final GitLabBots bots;
    private final Approver clientLibrary;
    private final Approver directHttp;

    BotApproval(Settings settings, GitLabBots bots, Approver clientLibrary, Approver directHttp) {
        this.settings = settings;
        this.bots = bots;
        this.clientLibrary = clientLibrary;
        this.directHttp = directHttp;
    }

    /**
     * @param sha the head approved (GitLab refuses with 409 when it moved); null: whatever the head is
     * @return the approval state GitLab's answer carries; empty when it carries none (304)
     */
    Optional<ApprovalState> approve(String project, long iid, String account, String sha) {
        var bot = bots.approver(account);
        var approver = switch (settings.approverMode().value()) {
            case CLIENT_LIBRARY -> clientLibrary;
            case DIRECT_HTTP -> directHttp;
        };
        return approver.approve(project, iid, bot, sha);
    }
}
