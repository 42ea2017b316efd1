package io.changeflow.sandbox.gitlab;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A project's push rule (GitLab Premium, {@code ee/app/models/push_rule.rb}, 17.x to 19.1) as the simulator keeps and
 * enforces it: every commit through the commits API is checked ({@code Commits::CreateService} turns the pre-receive
 * refusal into 400 with its message, lib/api/commits.rb), a new branch by its name, and a merge commit by its message
 * ({@code hooks_validation_error}, ee/app/services/ee/merge_requests/merge_service.rb: skipped for fast-forward
 * projects; the merge fails with {@code merge_error}, 422). Empty expressions check nothing. RE2 is read as
 * {@link Pattern} (the same for the common syntax); messages in multiline mode, as GitLab's
 * {@code data_match?(message, regex, multiline: true)}.
 *
 * @param commitMessageRegex         every commit message must contain a match
 * @param commitMessageNegativeRegex no commit message may contain a match
 * @param branchNameRegex            every new branch name (the default branch aside) must contain a match
 * @param authorEmailRegex           every commit's author email ({@code <username>@sandbox.invalid} here) must contain a
 *                                   match ({@code author_email_allowed?}; "Author's email '...' does not follow the pattern
 *                                   '...'", ee/lib/ee/gitlab/checks/push_rules/commit_check.rb)
 * @param fileNameRegex              no new file's path may contain a match ({@code filename_denylisted?}; "File name ...
 *                                   was prohibited by the pattern "...".", ee/lib/ee/gitlab/checks/diff_check.rb)
 * @param memberCheck                answered; never refuses the API's commits: GitLab's {@code check_member} returns for
 *                                   commits {@code updated_from_web?} (the commits API among them), and every account of
 *                                   the simulator is a GitLab user anyway
 * @param preventSecrets             no new file named like a secret (GitLab's files denylist,
 *                                   ee/lib/gitlab/checks/files_denylist.yml: {@code .pem}, {@code .key}, {@code id_rsa}
 *                                   and the like) may be added, with the same message naming the list's pattern
 * @param rejectNonDcoCommits        every commit message must carry a {@code Signed-off-by:} trailer
 */
public record GitLabPushRule(String commitMessageRegex, String commitMessageNegativeRegex, String branchNameRegex,
                             String authorEmailRegex, String fileNameRegex, boolean memberCheck, boolean preventSecrets,
                             boolean rejectNonDcoCommits) {

    /** {@code PushRule::DCO_COMMIT_REGEX} (ee/app/models/push_rule.rb, matched without multiline mode). */
    private static final Pattern DCO = Pattern.compile("Signed-off-by:.+<.+@.+>");

    public GitLabPushRule {
        commitMessageRegex = blankIsEmpty(commitMessageRegex);
        commitMessageNegativeRegex = blankIsEmpty(commitMessageNegativeRegex);
        branchNameRegex = blankIsEmpty(branchNameRegex);
        authorEmailRegex = blankIsEmpty(authorEmailRegex);
        fileNameRegex = blankIsEmpty(fileNameRegex);
        for (var regex : new String[] {commitMessageRegex, commitMessageNegativeRegex, branchNameRegex, authorEmailRegex,
                fileNameRegex}) {
            Pattern.compile(regex); // a rule GitLab would refuse to save (invalid expression) is refused here too
        }
    }

    /** A rule requiring commit messages to match {@code regex}, nothing else. */
    public static GitLabPushRule commitMessage(String regex) {
        return new GitLabPushRule(regex, "", "", "", "", false, false, false);
    }

    /** A rule requiring new branch names to match {@code regex}, nothing else. */
    public static GitLabPushRule branchName(String regex) {
        return new GitLabPushRule("", "", regex, "", "", false, false, false);
    }

    /**
     * What the rule refuses of a commit with {@code message}, in GitLab's words
     * (ee/lib/ee/gitlab/checks/push_rules/commit_check.rb and merge_service.rb {@code hooks_validation_error}).
     */
    Optional<String> refusesMessage(String message) {
        if (!commitMessageRegex.isEmpty() && !Pattern.compile(commitMessageRegex, Pattern.MULTILINE).matcher(message).find()) {
            return Optional.of("Commit message does not follow the pattern '" + commitMessageRegex + "'");
        }
        if (!commitMessageNegativeRegex.isEmpty()
                && Pattern.compile(commitMessageNegativeRegex, Pattern.MULTILINE).matcher(message.stripTrailing()).find()) {
            return Optional.of("Commit message contains the forbidden pattern '" + commitMessageNegativeRegex + "'");
        }
        if (rejectNonDcoCommits && !DCO.matcher(message).find()) {
            return Optional.of("Commit message must contain a DCO signoff");
        }
        return Optional.empty();
    }

    /** The names of GitLab's secret files list ({@code files_denylist.yml}, read at 17.x to 19.1-pre), as one expression. */
    static final String SECRET_FILES = "(\\.pem|\\.key|[._]history|(^|/)\\.?id_(rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)"
            + "|(^|/)\\.?aws/credentials)$";

    /** What the rule refuses of a commit authored by {@code email} (commit_check.rb, {@code author_email_allowed?}). */
    Optional<String> refusesAuthorEmail(String email) {
        if (!authorEmailRegex.isEmpty() && !Pattern.compile(authorEmailRegex).matcher(email).find()) {
            return Optional.of("Author's email '" + email + "' does not follow the pattern '" + authorEmailRegex + "'");
        }
        return Optional.empty();
    }

    /** What the rule refuses of a new file at {@code path} (diff_check.rb {@code file_name_validation}). */
    Optional<String> refusesNewFile(String path) {
        if (preventSecrets && Pattern.compile(SECRET_FILES).matcher(path).find()) {
            return Optional.of("File name " + path + " was prohibited by the pattern \"" + SECRET_FILES + "\".");
        }
        if (!fileNameRegex.isEmpty() && Pattern.compile(fileNameRegex).matcher(path).find()) {
            return Optional.of("File name " + path + " was prohibited by the pattern \"" + fileNameRegex + "\".");
        }
        return Optional.empty();
    }

    /** What the rule refuses of a new branch named {@code branch} (ee/lib/ee/gitlab/checks/push_rules/branch_check.rb). */
    Optional<String> refusesBranch(String branch) {
        if (!branchNameRegex.isEmpty() && !Pattern.compile(branchNameRegex).matcher(branch).find()) {
            return Optional.of("Branch name does not follow the pattern '" + branchNameRegex + "'");
        }
        return Optional.empty();
    }

    /**
     * {@code GET /projects/:id/push_rule} (ee/lib/api/project_push_rule.rb, the shape of
     * {@code EE::API::Entities::ProjectPushRule}, doc/api/project_push_rules.md; 17.x to 19.1).
     */
    Map<String, Object> json(long id, long projectId, Instant createdAt) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", id);
        json.put("project_id", projectId);
        json.put("created_at", createdAt.toString());
        json.put("commit_message_regex", commitMessageRegex);
        json.put("commit_message_negative_regex", commitMessageNegativeRegex);
        json.put("branch_name_regex", branchNameRegex);
        json.put("deny_delete_tag", false);
        json.put("member_check", memberCheck);
        json.put("prevent_secrets", preventSecrets);
        json.put("author_email_regex", authorEmailRegex);
        json.put("file_name_regex", fileNameRegex);
        json.put("max_file_size", 0);
        json.put("commit_committer_check", null);
        json.put("commit_committer_name_check", false);
        json.put("reject_unsigned_commits", null);
        json.put("reject_non_dco_commits", rejectNonDcoCommits ? Boolean.TRUE : null);
        return json;
    }

    private static String blankIsEmpty(String text) {
        return text == null || text.isBlank() ? "" : text;
    }
}
