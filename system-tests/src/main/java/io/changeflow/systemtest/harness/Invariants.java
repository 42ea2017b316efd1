package io.changeflow.systemtest.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What users rely on once a request has taken effect, checked against the simulators' own records
 * (never against what the service says about itself). Each method answers the problems found, empty
 * when all holds, so a test can collect them over many requests and fail once with all of them.
 *
 * <p>The calls that list merge requests use the GitLab simulator's REST API, which fault injection
 * applies to: clear the faults before checking.
 */
public final class Invariants {

    /** The approval bots every merge request must be approved by, once each. */
    public static final List<String> APPROVAL_BOTS = List.of("approval-bot-1", "approval-bot-2");

    private Invariants() {
    }

    /** The grant file of a catalog target ({@code grants/<key>.txt}, as in the sandbox catalog). */
    public static String grantFileOf(String targetKey) {
        return "grants/" + targetKey + ".txt";
    }

    /**
     * A request that reached VALIDATED on its own merge request: the MR is shown in the view, it is
     * merged, approved by each bot exactly once, merged exactly once, the operation has no second merge
     * request, and its grant line is on the target branch exactly once.
     */
    public static List<String> deliveredOnItsOwnMergeRequest(SimulatorHost sims, RequestView view) {
        var problems = new ArrayList<String>();
        var op = view.operationId();
        if (!"VALIDATED".equals(view.status())) {
            problems.add(op + ": status " + view.outcome() + ", expected VALIDATED (" + view.detail() + ")");
        }
        var iid = view.mergeRequestIid();
        if (iid < 0 || view.mergeRequestWebUrl() == null) {
            problems.add(op + ": the request view shows no merge request");
            return problems;
        }
        problems.addAll(mergedOnceAndApproved(sims, iid, op + " (MR !" + iid + ")"));
        var ownMergeRequests = sims.mergeRequestsFrom("changeflow/" + op);
        if (ownMergeRequests.size() != 1) {
            problems.add(op + ": " + ownMergeRequests.size() + " merge requests from its branch, expected 1");
        }
        problems.addAll(mergedOnceWithGrantLine(sims, view));
        return problems;
    }

    /**
     * A batch member that reached VALIDATED: merged exactly once (by its batch's merge request, which is
     * approved by each bot once and merged once), never by a merge request of its own, and its grant
     * line is on the target branch exactly once.
     */
    public static List<String> deliveredInABatch(SimulatorHost sims, RequestView view) {
        var problems = new ArrayList<String>();
        var op = view.operationId();
        if (!"VALIDATED".equals(view.status())) {
            problems.add(op + ": status " + view.outcome() + ", expected VALIDATED (" + view.detail() + ")");
        }
        var merges = sims.mergeLog().merges().stream().filter(m -> m.operationIds().contains(op)).toList();
        if (merges.size() == 1) {
            problems.addAll(mergedOnceAndApproved(sims, merges.getFirst().iid(), op + " (batch MR !" + merges.getFirst().iid() + ")"));
        }
        if (!sims.mergeRequestsFrom("changeflow/" + op).isEmpty()) {
            problems.add(op + ": a batch member got a merge request of its own");
        }
        problems.addAll(mergedOnceWithGrantLine(sims, view));
        return problems;
    }

    private static List<String> mergedOnceWithGrantLine(SimulatorHost sims, RequestView view) {
        var problems = new ArrayList<String>();
        var op = view.operationId();
        var merges = sims.mergeLog().mergesOf(op);
        if (merges != 1) {
            problems.add(op + ": merged " + merges + " times, expected once");
        }
        var lines = sims.grantLinesOnMain(grantFileOf(view.targetKey()), op);
        if (lines != 1) {
            problems.add(op + ": " + lines + " grant lines on main, expected 1");
        }
        return problems;
    }

    /** Merge request {@code iid}: merged, merged exactly once, approved by each bot exactly once. */
    public static List<String> mergedOnceAndApproved(SimulatorHost sims, long iid, String what) {
        var problems = new ArrayList<String>();
        var state = sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid);
        if (!"merged".equals(state)) {
            problems.add(what + ": merge request is " + state + ", expected merged");
        }
        var mergedTimes = sims.mergeLog().mergesOf(SimulatorHost.PROJECT, iid);
        if (mergedTimes != 1) {
            problems.add(what + ": merge request merged " + mergedTimes + " times");
        }
        var approvedBy = sims.gitlab().approvedBy(SimulatorHost.PROJECT, iid);
        for (var bot : APPROVAL_BOTS) {
            var times = approvedBy.stream().filter(bot::equals).count();
            if (times != 1) {
                problems.add(what + ": approved by " + bot + " " + times + " times, expected once (approved by "
                        + approvedBy + ")");
            }
        }
        return problems;
    }

    /**
     * Second approval attempts by the same bot on the same merge request, from the simulator's call
     * log: the simulator refuses them (401), so they never show as approvals; here they do.
     * {@code "project!iid account: [201, 401]"} per offending pair.
     */
    public static List<String> repeatedApprovalAttempts(GitLabCalls calls) {
        var problems = new ArrayList<String>();
        calls.approveAttempts().forEach((mr, byAccount) -> byAccount.forEach((account, statuses) -> {
            // statuses are in arrival order; 2xx is an approval, 504 an approval whose answer was lost
            var firstApplied = -1;
            for (int i = 0; i < statuses.size(); i++) {
                var s = statuses.get(i);
                if (s >= 200 && s < 300 || s == 504) {
                    firstApplied = i;
                    break;
                }
            }
            if (firstApplied >= 0 && firstApplied < statuses.size() - 1) {
                problems.add(mr + " " + account + ": " + statuses);
            }
        }));
        return problems;
    }

    /** Counts of {@link RequestView#outcome()} (status / step / hint) over {@code views}. */
    public static Map<String, Integer> outcomeTable(Collection<RequestView> views) {
        var table = new HashMap<String, Integer>();
        views.forEach(v -> table.merge(v.outcome(), 1, Integer::sum));
        return table;
    }

    /**
     * From the database's membership history ({@code merge_batch_membership_history}, append-only):
     * no operation was ever claimed by a batch while it still belonged to another one (a request in two
     * batches), and no operation belongs to two succeeded batches (merged twice).
     */
    public static List<String> batchMembershipProblems(DataSource dataSource) {
        var problems = new ArrayList<String>();
        var inBatch = new HashMap<String, Long>();
        for (var row : Sql.rows(dataSource, "select operation_id, batch_id, action from merge_batch_membership_history order by id")) {
            var op = String.valueOf(row.get("operation_id"));
            var batch = ((Number) row.get("batch_id")).longValue();
            if ("CLAIMED".equals(row.get("action"))) {
                var previous = inBatch.put(op, batch);
                if (previous != null) {
                    problems.add(op + " claimed by batch " + batch + " while still in batch " + previous);
                }
            } else if (!Long.valueOf(batch).equals(inBatch.remove(op))) {
                problems.add(op + " released by batch " + batch + ", which it was not in");
            }
        }
        for (var row : Sql.rows(dataSource, "select h.operation_id, count(distinct h.batch_id) as batches"
                + " from merge_batch_membership_history h join merge_batch b on b.id = h.batch_id"
                + " where b.status = 2 and h.action = 'CLAIMED' group by h.operation_id having count(distinct h.batch_id) > 1")) {
            problems.add(row.get("operation_id") + " is a member of " + row.get("batches") + " succeeded batches");
        }
        return problems;
    }
}
