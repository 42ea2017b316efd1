package io.changeflow.reliability.support;

import io.changeflow.sandbox.deploy.DeployPipelineSimulator.SentReport;
import io.changeflow.sandbox.gitlab.GitLabSimulator.MergeRecord;
import io.changeflow.sandbox.gitlab.GitLabSimulator.OpenMergeRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The three safety properties of issue 13 (docs/reliability.md "Safety"), as pure checks over the
 * simulators' own records, never over what the service says about itself. Each answers the violations
 * found, one sentence each, empty when the property holds.
 */
public final class SafetyProperties {

    /** The branch prefix of a request's own merge request: {@code changeflow/<operationId>}. */
    public static final String OWN_BRANCH_PREFIX = "changeflow/";
    private static final Pattern TRAILER = Pattern.compile(
            "^\\s*Changeflow-Operation:\\s*([0-9a-fA-F-]{36})\\s*$", Pattern.MULTILINE);

    private SafetyProperties() {
    }

    /**
     * (a) Never merge a head whose pipeline did not pass: every merge the GitLab simulator performed merged a
     * head whose latest pipeline on the merge request's source branch had status {@code success} at that moment.
     */
    public static List<String> mergedWithoutPassedPipeline(Collection<MergeRecord> merges) {
        var violations = new ArrayList<String>();
        for (var merge : merges) {
            if (!"success".equals(merge.pipelineStatus())) {
                violations.add("(a) " + merge.project() + "!" + merge.iid() + " (" + merge.sourceBranch() + ") merged head "
                        + merge.mergedSha() + " at " + merge.at() + " while its pipeline "
                        + (merge.pipelineId() == null ? "did not exist" : "#" + merge.pipelineId() + " was " + merge.pipelineStatus()));
            }
        }
        return violations;
    }

    /**
     * (b) Never two open merge requests for one request: no operation has more than one open merge request
     * counting those from its branch {@code changeflow/<operationId>} and those whose description names it
     * ({@code Changeflow-Operation: <operationId>}: its own, or a batch's).
     *
     * @param open the open merge requests, as the GitLab simulator holds them
     */
    public static List<String> twoOpenMergeRequests(Collection<OpenMergeRequest> open) {
        var byOperation = new TreeMap<String, Set<Long>>();
        for (var mr : open) {
            if (mr.sourceBranch().startsWith(OWN_BRANCH_PREFIX)) {
                byOperation.computeIfAbsent(mr.sourceBranch().substring(OWN_BRANCH_PREFIX.length()).toLowerCase(Locale.ROOT),
                        k -> new TreeSet<>()).add(mr.iid());
            }
            var matcher = TRAILER.matcher(mr.description() == null ? "" : mr.description());
            while (matcher.find()) {
                byOperation.computeIfAbsent(matcher.group(1).toLowerCase(Locale.ROOT), k -> new TreeSet<>()).add(mr.iid());
            }
        }
        var violations = new ArrayList<String>();
        byOperation.forEach((op, iids) -> {
            if (iids.size() > 1) {
                violations.add("(b) request " + op + " has " + iids.size() + " open merge requests: " + iids);
            }
        });
        return violations;
    }

    /**
     * (c) Never VALIDATED without evidence: for each request seen VALIDATED, the deploy simulator sent a report
     * naming it (its operation ID), or a report without IDs for a merge request that carried it, or an operator
     * asked to confirm it deployed.
     *
     * @param validated        operation IDs seen VALIDATED (read before the evidence below)
     * @param reports          the deploy simulator's sent reports
     * @param carriedBy        for each operation ID, the merge requests (project!iid) whose merge carried it
     *                         (the GitLab simulator's merge log)
     * @param confirmedByHand  operation IDs an operator asked to confirm deployed (the test's own action log)
     */
    public static List<String> validatedWithoutEvidence(Collection<String> validated, Collection<SentReport> reports,
                                                        Map<String, Set<String>> carriedBy, Set<String> confirmedByHand) {
        var violations = new ArrayList<String>();
        for (var op : validated) {
            if (confirmedByHand.contains(op)) {
                continue;
            }
            var mergeRequests = carriedBy.getOrDefault(op, Set.of());
            var reported = reports.stream().anyMatch(r -> r.operationIds().isEmpty()
                    ? mergeRequests.contains(r.project() + "!" + r.mrIid())
                    : r.operationIds().contains(op));
            if (!reported) {
                violations.add("(c) " + op + " is VALIDATED without a deploy report naming it (merged by "
                        + (mergeRequests.isEmpty() ? "no merge request" : mergeRequests) + ") and without an operator's confirm");
            }
        }
        return violations;
    }
}
