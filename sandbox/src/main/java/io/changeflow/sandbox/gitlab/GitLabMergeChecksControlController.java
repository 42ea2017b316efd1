package io.changeflow.sandbox.gitlab;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test control over HTTP of what blocks or refuses a merge on GitLab (issue 35), next to
 * {@link GitLabControlController} under the same prefix and never fault-injected: the project settings and merge
 * request states {@link GitLabSimulator} follows from GitLab's own code (each method cites the file). Every setting is
 * off, as GitLab's default, until set; a body field that is missing or not of its type answers 400.
 */
@RestController
@RequestMapping(GitLabControlController.PREFIX)
class GitLabMergeChecksControlController extends GitLabControlErrors {

    private static final Set<String> STATUS_CHECK_ANSWERS = Set.of("passed", "failed", "pending");

    private final GitLabSimulator gitlab;

    GitLabMergeChecksControlController(GitLabSimulator gitlab) {
        this.gitlab = gitlab;
    }

    /** Body {@code {"draft": true}}: the merge request is a draft ({@code draft_status}, merging 405) or ready. */
    @PutMapping("/projects/{id}/merge_requests/{iid}/draft")
    ResponseEntity<Void> draft(@PathVariable String id, @PathVariable long iid, @RequestBody Map<String, Object> body) {
        gitlab.setDraft(id, iid, flag(body, "draft"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"required": true}}: {@code only_allow_merge_if_all_discussions_are_resolved}. */
    @PutMapping("/projects/{id}/require_resolved_discussions")
    ResponseEntity<Void> requireResolvedDiscussions(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.requireResolvedDiscussions(id, flag(body, "required"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"count": 2}}: unresolved blocking discussions of the merge request (0: all resolved). */
    @PutMapping("/projects/{id}/merge_requests/{iid}/unresolved_discussions")
    ResponseEntity<Void> unresolvedDiscussions(@PathVariable String id, @PathVariable long iid,
                                               @RequestBody Map<String, Object> body) {
        gitlab.setUnresolvedDiscussions(id, iid, (int) count(body, "count"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"required": true}}: external status checks with {@code only_allow_merge_if_all_status_checks_passed}. */
    @PutMapping("/projects/{id}/require_status_checks")
    ResponseEntity<Void> requireStatusChecks(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.requireStatusChecks(id, flag(body, "required"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"status": "passed|failed|pending"}}: the external status checks' answer for the merge request. */
    @PutMapping("/projects/{id}/merge_requests/{iid}/status_checks")
    ResponseEntity<Void> statusChecks(@PathVariable String id, @PathVariable long iid, @RequestBody Map<String, Object> body) {
        var status = body.get("status") == null ? "" : String.valueOf(body.get("status")).strip().toLowerCase(Locale.ROOT);
        if (!STATUS_CHECK_ANSWERS.contains(status)) {
            throw new IllegalArgumentException("status is one of passed, failed, pending");
        }
        gitlab.setStatusChecks(id, iid, status);
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"required": true}}: the namespace's {@code require_sha_for_merge} (honoured on gitlab-19 only). */
    @PutMapping("/projects/{id}/require_sha_for_merge")
    ResponseEntity<Void> requireShaForMerge(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.requireShaForMerge(id, flag(body, "required"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"required": true}}: {@code require_reauthentication_to_approve} (API approvals answer 401). */
    @PutMapping("/projects/{id}/require_reauthentication_to_approve")
    ResponseEntity<Void> requireReauthentication(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.requireReauthenticationToApprove(id, flag(body, "required"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"enabled": false}}: the project's {@code reset_approvals_on_push} (GitLab's default: true). */
    @PutMapping("/projects/{id}/reset_approvals_on_push")
    ResponseEntity<Void> resetApprovalsOnPush(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.resetApprovalsOnPush(id, flag(body, "enabled"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"protected": false}}: protects the branch or lifts its protection. */
    @PutMapping("/projects/{id}/branches/{branch}/protected")
    ResponseEntity<Void> protect(@PathVariable String id, @PathVariable String branch, @RequestBody Map<String, Object> body) {
        gitlab.protectBranch(id, branch, flag(body, "protected"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"accounts": ["approval-bot-1"]}}: "Allowed to merge" into the protected branch; empty: Maintainers. */
    @PutMapping("/projects/{id}/branches/{branch}/allowed_to_merge")
    ResponseEntity<Void> allowedToMerge(@PathVariable String id, @PathVariable String branch,
                                        @RequestBody Map<String, Object> body) {
        if (!(body.get("accounts") instanceof Collection<?> accounts)) {
            throw new IllegalArgumentException("accounts is a list of usernames");
        }
        var names = new LinkedHashSet<String>();
        accounts.stream().filter(Objects::nonNull).map(String::valueOf).forEach(names::add);
        gitlab.allowedToMerge(id, branch, names);
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"enabled": false}}: the project's pushes create no pipeline from now on ({@code rules:changes}). */
    @PutMapping("/projects/{id}/create_pipelines")
    ResponseEntity<Void> createPipelines(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.createPipelines(id, flag(body, "enabled"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"millis": 2000}}: how long after a push its pipeline is created (0: at once, the default). */
    @PutMapping("/pipeline_creation_delay")
    ResponseEntity<Void> pipelineCreationDelay(@RequestBody Map<String, Object> body) {
        gitlab.setPipelineCreationDelay(Duration.ofMillis(count(body, "millis")));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"times": 2}}: the project's next rebase requests cannot be queued (409). */
    @PostMapping("/projects/{id}/refuse_rebase_enqueue")
    ResponseEntity<Void> refuseRebaseEnqueue(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.refuseRebaseEnqueue(id, (int) count(body, "times"));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"times": 1, "merge_error": "..."}}: the next merges passing every check fail with 422 {@code merge_error}. */
    @PostMapping("/projects/{id}/refuse_merges")
    ResponseEntity<Void> refuseMerges(@PathVariable String id, @RequestBody Map<String, Object> body) {
        var message = body.get("merge_error") == null ? "" : String.valueOf(body.get("merge_error")).strip();
        if (message.isEmpty()) {
            throw new IllegalArgumentException("merge_error is GitLab's message for the refused merge");
        }
        gitlab.refuseMerges(id, (int) count(body, "times"), message);
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"merge_after": "2030-01-01T00:00:00Z"}} ({@code merge_time} until then) or {@code null}: none. */
    @PutMapping("/projects/{id}/merge_requests/{iid}/merge_after")
    ResponseEntity<Void> mergeAfter(@PathVariable String id, @PathVariable long iid, @RequestBody Map<String, Object> body) {
        if (!body.containsKey("merge_after")) {
            throw new IllegalArgumentException("merge_after is an ISO-8601 instant or null");
        }
        Instant at;
        try {
            at = body.get("merge_after") == null ? null : Instant.parse(String.valueOf(body.get("merge_after")));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("merge_after is an ISO-8601 instant or null");
        }
        gitlab.setMergeAfter(id, iid, at);
        return ResponseEntity.noContent().build();
    }

    /**
     * Body {@code {"merge_requests_author_approval": false, "merge_requests_disable_committers_approval": false,
     * "selective_code_owner_removals": false}}: the project's approval settings (each required).
     */
    @PutMapping("/projects/{id}/approval_settings")
    ResponseEntity<Void> approvalSettings(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.setApprovalSettings(id, flag(body, "merge_requests_author_approval"),
                flag(body, "merge_requests_disable_committers_approval"), flag(body, "selective_code_owner_removals"));
        return ResponseEntity.noContent().build();
    }

    /**
     * Body with GitLab's push rule attributes ({@code commit_message_regex}, {@code commit_message_negative_regex},
     * {@code branch_name_regex}, {@code author_email_regex}, {@code file_name_regex}, {@code member_check},
     * {@code prevent_secrets}, {@code reject_non_dco_commits}); missing ones are off. An invalid expression: 400.
     */
    @PutMapping("/projects/{id}/push_rule")
    ResponseEntity<Void> pushRule(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.setPushRule(id, new GitLabPushRule(text(body, "commit_message_regex"), text(body, "commit_message_negative_regex"),
                text(body, "branch_name_regex"), text(body, "author_email_regex"), text(body, "file_name_regex"),
                Boolean.TRUE.equals(body.get("member_check")), Boolean.TRUE.equals(body.get("prevent_secrets")),
                Boolean.TRUE.equals(body.get("reject_non_dco_commits"))));
        return ResponseEntity.noContent().build();
    }

    /** The project has no push rule any more. */
    @DeleteMapping("/projects/{id}/push_rule")
    ResponseEntity<Void> removePushRule(@PathVariable String id) {
        gitlab.setPushRule(id, null);
        return ResponseEntity.noContent().build();
    }

    private static boolean flag(Map<String, Object> body, String field) {
        if (body.get(field) instanceof Boolean value) {
            return value;
        }
        throw new IllegalArgumentException(field + " is true or false");
    }

    private static String text(Map<String, Object> body, String field) {
        return body.get(field) == null ? "" : String.valueOf(body.get(field));
    }

    private static long count(Map<String, Object> body, String field) {
        if (body.get(field) instanceof Number value && value.longValue() >= 0) {
            return value.longValue();
        }
        throw new IllegalArgumentException(field + " is a number of 0 or more");
    }
}
