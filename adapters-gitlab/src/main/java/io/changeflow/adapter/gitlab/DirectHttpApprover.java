package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import io.changeflow.application.port.out.ExternalCallException;
import java.util.List;
import java.util.Map;

/**
 * The approval as a direct HTTP call that carries the project's required check items (the client library
 * cannot send them). The items come from {@link CheckItems}; when GitLab answers 422 with the items now
 * in effect, the request is rebuilt from them and sent once more, which saves a read round trip.
 */
final class DirectHttpApprover implements Approver {

    /** What one attempt got: approved, or refused because the items changed (then the items in effect). */
    private record Attempt(boolean approved, List<String> itemsInEffect) {}

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final CheckItems checkItems;

    DirectHttpApprover(GitLabCalls calls, GitLabHttp http, CheckItems checkItems) {
        this.calls = calls;
        this.http = http;
        this.checkItems = checkItems;
    }

    @Override
    public void approve(String project, long iid, ApprovalBot bot) {
        var first = attempt(project, iid, bot, checkItems.of(project, bot));
        if (first.approved()) {
            return;
        }
        checkItems.replace(project, first.itemsInEffect());
        var second = attempt(project, iid, bot, first.itemsInEffect());
        if (!second.approved()) {
            checkItems.replace(project, second.itemsInEffect());
            throw ExternalCallException.status(GitLabCalls.SYSTEM, 422,
                    "approve: the check items changed again while retrying");
        }
    }

    private Attempt attempt(String project, long iid, ApprovalBot bot, List<String> items) {
        return calls.call("approve", () -> {
            var response = http.postJson(GitLabHttp.projectPath(project) + "/merge_requests/" + iid + "/approve",
                    bot.token(), Map.of("check_items", items));
            if (GitLabHttp.isSuccess(response)) {
                return new Attempt(true, items);
            }
            if (response.statusCode() == 422) {
                var inEffect = GitLabHttp.checkItems(response.body());
                if (inEffect.isPresent()) {
                    return new Attempt(false, inEffect.get());
                }
            }
            throw GitLabHttp.failure(response);
        });
    }
}
