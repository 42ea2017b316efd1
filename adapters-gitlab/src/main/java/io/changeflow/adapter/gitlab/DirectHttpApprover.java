package io.changeflow.adapter.gitlab;

import io.changeflow.adapter.gitlab.GitLabBots.ApprovalBot;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * The approval as a direct HTTP call that carries the project's required check items (the client library
 * cannot send them) and the approved head's {@code sha}. The items come from {@link CheckItems}; when GitLab
 * answers 422 with the items now in effect, the request is rebuilt from them and sent once more, which saves
 * a read round trip. A GitLab without the check-items extension (404 on reading them) gets the client
 * library's approval for that project instead: never a failed approval for want of an extension.
 */
final class DirectHttpApprover implements Approver {

    /**
     * What one attempt got: approved (with the approval state its answer carries), or refused because the items changed
     * (then the items in effect).
     */
    private record Attempt(boolean approved, List<String> itemsInEffect, Optional<ApprovalState> state) {}

    private final GitLabCalls calls;
    private final GitLabHttp http;
    private final CheckItems checkItems;
    private final Approver withoutExtension;

    /** @param withoutExtension the approval used for projects whose GitLab has no check-items API */
    DirectHttpApprover(GitLabCalls calls, GitLabHttp http, CheckItems checkItems, Approver withoutExtension) {
        this.calls = calls;
        this.http = http;
        this.checkItems = checkItems;
        this.withoutExtension = withoutExtension;
    }

    @Override
    public Optional<ApprovalState> approve(String project, long iid, ApprovalBot bot, String sha) {
        var items = checkItems.of(project, bot);
        if (items.isEmpty()) {
            return withoutExtension.approve(project, iid, bot, sha);
        }
        var first = attempt(project, iid, bot, items.get(), sha);
        if (first.approved()) {
            return first.state();
        }
        checkItems.replace(project, first.itemsInEffect());
        var second = attempt(project, iid, bot, first.itemsInEffect(), sha);
        if (!second.approved()) {
            checkItems.replace(project, second.itemsInEffect());
            throw ExternalCallException.status(GitLabCalls.SYSTEM, 422,
                    "approve: the check items changed again while retrying");
        }
        return second.state();
    }

    private Attempt attempt(String project, long iid, ApprovalBot bot, List<String> items, String sha) {
        var body = new LinkedHashMap<String, Object>();
        body.put("check_items", items);
        if (sha != null) {
            body.put("sha", sha);
        }
        return calls.call("approve", () -> {
            var response = http.postJson(GitLabHttp.projectPath(project) + "/merge_requests/" + iid + "/approve",
                    bot.token(), body);
            if (GitLabHttp.isSuccess(response)) {
                return new Attempt(true, items, ApprovalAnswers.ofApproval(response.body()));
            }
            if (response.statusCode() == ALREADY_APPROVED) {
                return new Attempt(true, items, Optional.empty());
            }
            if (response.statusCode() == 422) {
                var inEffect = GitLabHttp.checkItems(response.body());
                if (inEffect.isPresent()) {
                    return new Attempt(false, inEffect.get(), Optional.empty());
                }
            }
            throw GitLabHttp.failure(response);
        });
    }
}
