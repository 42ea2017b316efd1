package io.changeflow.adapter.gitlab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import java.util.LinkedHashSet;
import java.util.Optional;
import org.gitlab4j.api.models.MergeRequest;
import org.gitlab4j.api.models.User;

/**
 * GitLab's approval state as its approvals entity says it: {@code GET .../approvals} and {@code POST .../approve} both
 * answer with it (lib/api/merge_request_approvals.rb: both end in {@code present_approval(merge_request)}; EE the same
 * entity for both, ee/lib/ee/api/merge_requests.rb): {@code approved_by[].user.username}, and GitLab's own judgement from
 * {@code approvals_left} (0: approved; absent, as on a GitLab without approval rules: nothing more required).
 */
final class ApprovalAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ApprovalAnswers() {
    }

    /** The state a read of the approvals answered (the client library's model of the entity). */
    static ApprovalState of(MergeRequest approvals) {
        var accounts = new LinkedHashSet<String>();
        if (approvals.getApprovedBy() != null) {
            for (User user : approvals.getApprovedBy()) {
                if (user != null && user.getUsername() != null) {
                    accounts.add(user.getUsername());
                }
            }
        }
        return state(accounts, approvals.getApprovalsLeft());
    }

    /** The state an approval's answer carries; empty when it carries no {@code approved_by} (no entity, e.g. 304). */
    static Optional<ApprovalState> ofApproval(MergeRequest answer) {
        return answer == null || answer.getApprovedBy() == null ? Optional.empty() : Optional.of(of(answer));
    }

    /** {@link #ofApproval(MergeRequest)} for an answer's JSON body (the direct HTTP approval). */
    static Optional<ApprovalState> ofApproval(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        var approvedBy = json.path("approved_by");
        if (!approvedBy.isArray()) {
            return Optional.empty();
        }
        var accounts = new LinkedHashSet<String>();
        for (var entry : approvedBy) {
            var username = entry.path("user").path("username");
            if (username.isTextual()) {
                accounts.add(username.asText());
            }
        }
        var left = json.path("approvals_left");
        return Optional.of(state(accounts, left.isIntegralNumber() ? left.asInt() : null));
    }

    private static ApprovalState state(LinkedHashSet<String> accounts, Integer left) {
        return new ApprovalState(accounts, left == null || left <= 0, left == null ? 0 : left);
    }
}
