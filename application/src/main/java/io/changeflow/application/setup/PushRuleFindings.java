package io.changeflow.application.setup;

import io.changeflow.application.port.out.ProjectSetup.PushRule;
import io.changeflow.application.setup.SetupFinding.Severity;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a project's push rule refuses of Changeflow's commits (issue 35): the rule is checked by GitLab on every commit
 * pushed, the author bot's commits through the API and the merge commits GitLab writes when it merges included
 * ({@code ee/app/models/push_rule.rb}, 17.x to 19.1). Judged here on samples of what Changeflow writes: its branch names
 * ({@code changeflow/<operation>}, {@code changeflow/batch-<n>}), its commit messages, the default merge commit message
 * ({@code Project::DEFAULT_MERGE_COMMIT_TEMPLATE}, app/models/project.rb) and the targets' grant files.
 *
 * <p>GitLab matches with RE2 ({@code Gitlab::UntrustedRegexp}); this check with {@link Pattern}, which reads the
 * common syntax alike. A rule Java cannot read is reported as one it cannot judge, never as passing.
 */
final class PushRuleFindings {

    private static final OperationId SAMPLE = OperationId.of("00000000-0000-4000-8000-000000000000");
    /**
     * {@code prevent_secrets}: the suffixes and names of GitLab's secret files list
     * ({@code ee/lib/gitlab/checks/files_denylist.yml}, listed in doc/user/project/repository/push_rules.md, 17.x to 19.1).
     */
    private static final Pattern SECRET_FILE = Pattern.compile(
            "(\\.pem|\\.key|[._]history|(^|/)\\.?id_(rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)|(^|/)\\.?aws/credentials)$");
    /** {@code PushRule::DCO_COMMIT_REGEX} (ee/app/models/push_rule.rb): a DCO-certified message carries this trailer. */
    private static final Pattern DCO = Pattern.compile("Signed-off-by:.+<.+@.+>");

    private PushRuleFindings() {
    }

    static List<SetupFinding> of(String project, String branch, boolean mergeCommits, List<Target> targets, PushRule rule) {
        var findings = new ArrayList<SetupFinding>();
        var keys = targets.stream().map(t -> t.key().value()).toList();
        var single = MergeRequestTexts.branchOf(SAMPLE);
        var batch = MergeRequestTexts.batchBranchOf(1);
        var messages = new ArrayList<String>();
        for (var key : keys) {
            messages.add(MergeRequestTexts.commitMessage(MergeRequestTexts.titleOf(key, "a-subject"), List.of(SAMPLE)));
        }
        if (!keys.isEmpty()) {
            messages.add(MergeRequestTexts.commitMessage(MergeRequestTexts.batchTitleOf(1, 2, keys), List.of(SAMPLE, SAMPLE)));
        }
        if (mergeCommits) {
            var title = keys.isEmpty() ? "Grant a-target to a-subject" : MergeRequestTexts.titleOf(keys.getFirst(), "a-subject");
            messages.add("Merge branch '" + single + "' into '" + branch + "'\n\n" + title + "\n\nSee merge request " + project + "!1");
        }

        if (!rule.branchNameRegex().isBlank()) {
            judge(project, "branch name", rule.branchNameRegex(), 0, findings).ifPresent(regex -> {
                var refused = List.of(single, batch).stream().filter(name -> !regex.matcher(name).find()).toList();
                if (!refused.isEmpty()) {
                    findings.add(new SetupFinding(project, "PUSH_RULE_BRANCH_NAME", Severity.BLOCKS,
                            "the push rule's branch name '" + rule.branchNameRegex() + "' refuses Changeflow's branches "
                                    + refused + ": GitLab refuses every branch Changeflow creates, so no merge request opens",
                            "let the branch name rule accept '^changeflow/' (e.g. add '|^changeflow/' to it)"));
                }
            });
        }
        if (!rule.commitMessageRegex().isBlank()) {
            judge(project, "commit message", rule.commitMessageRegex(), Pattern.MULTILINE, findings).ifPresent(regex ->
                    messages.stream().filter(m -> !regex.matcher(m).find()).findFirst().ifPresent(refused ->
                            findings.add(new SetupFinding(project, "PUSH_RULE_COMMIT_MESSAGE", Severity.BLOCKS,
                                    "the push rule requires commit messages to match '" + rule.commitMessageRegex()
                                            + "', and Changeflow's do not (e.g. '" + firstLine(refused) + "'): GitLab "
                                            + "refuses its commits" + (mergeCommits ? " and its merge commits (422)" : ""),
                                    "let the rule accept Changeflow's messages (they end with a line '"
                                            + MergeRequestTexts.OPERATION_TRAILER.strip() + " <id>'), or use a project without it"))));
        }
        if (!rule.commitMessageNegativeRegex().isBlank()) {
            judge(project, "negative commit message", rule.commitMessageNegativeRegex(), Pattern.MULTILINE, findings)
                    .ifPresent(regex -> messages.stream().filter(m -> regex.matcher(m.stripTrailing()).find()).findFirst()
                            .ifPresent(refused -> findings.add(new SetupFinding(project, "PUSH_RULE_COMMIT_MESSAGE", Severity.BLOCKS,
                                    "the push rule refuses commit messages matching '" + rule.commitMessageNegativeRegex()
                                            + "', as Changeflow's do (e.g. '" + firstLine(refused) + "'): GitLab refuses its commits",
                                    "narrow the rule's rejected expression so that it spares Changeflow's messages"))));
        }
        if (rule.rejectNonDcoCommits()) {
            messages.stream().filter(m -> !DCO.matcher(m).find()).findFirst().ifPresent(refused ->
                    findings.add(new SetupFinding(project, "PUSH_RULE_DCO", Severity.BLOCKS,
                            "the push rule rejects commits that are not DCO certified: Changeflow's commit messages carry no "
                                    + "'Signed-off-by:' trailer, so GitLab refuses every commit of its",
                            "turn off 'Reject commits that aren't DCO certified' for this project, or keep Changeflow's"
                                    + " targets in a project without it")));
        }
        var paths = targets.stream().map(Target::filePath).distinct().toList();
        if (rule.preventSecrets()) {
            paths.stream().filter(p -> SECRET_FILE.matcher(p.toLowerCase(Locale.ROOT)).find()).forEach(path ->
                    findings.add(fileFinding(project, path, "it is named like a secret file ('Prevent pushing secret files')")));
        }
        if (!rule.fileNameRegex().isBlank()) {
            judge(project, "file name", rule.fileNameRegex(), 0, findings).ifPresent(regex -> paths.stream()
                    .filter(p -> regex.matcher(p).find()).forEach(path -> findings.add(fileFinding(project, path,
                            "it matches the prohibited file names '" + rule.fileNameRegex() + "'"))));
        }
        if (!rule.authorEmailRegex().isBlank()) {
            findings.add(new SetupFinding(project, "PUSH_RULE_AUTHOR_EMAIL", Severity.WARNS,
                    "the push rule requires commit author emails to match '" + rule.authorEmailRegex() + "': Changeflow's "
                            + "commits carry the author bot's commit email, which the bot's token cannot show",
                    "check that the author bot's commit email matches the rule (for a project or group bot, its"
                            + " generated email suffix)"));
        }
        return findings;
    }

    private static SetupFinding fileFinding(String project, String path, String why) {
        return new SetupFinding(project, "PUSH_RULE_FILE_NAME", Severity.WARNS,
                "the grant file '" + path + "' cannot be created while it is not in the repository: " + why,
                "create the file on the target branch by hand once, or change the rule or the target's file path");
    }

    /** The rule's expression compiled, or empty with a finding saying it could not be judged. */
    private static Optional<Pattern> judge(String project, String which, String regex, int flags, List<SetupFinding> findings) {
        try {
            return Optional.of(Pattern.compile(regex, flags));
        } catch (PatternSyntaxException e) {
            findings.add(new SetupFinding(project, "PUSH_RULE_NOT_JUDGED", Severity.WARNS,
                    "the push rule's " + which + " expression '" + regex + "' is RE2 syntax this check cannot read, so"
                            + " whether it refuses Changeflow's commits is not known",
                    "check by hand that it accepts Changeflow's branches ('changeflow/...') and commit messages"));
            return Optional.empty();
        }
    }

    private static String firstLine(String message) {
        return message.lines().findFirst().orElse("");
    }
}
