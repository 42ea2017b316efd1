package io.changeflow.application.recovery;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.ClosedAtRest;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.state.BindingStatus;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;

/**
 * Finding S9 (issue 30): a merge request a person reopens on GitLab after its request ended unmerged (REJECTED, CLOSED,
 * or replaced by a newer request) is closed again through the close step ({@link StepKind#CLOSE}, which reads GitLab
 * first and follows the transition table: CLOSE_STARTED, then CLOSE_DONE, or CLOSE_FAILED and the failed-close retries).
 * Part of the failed-close job ({@link RetryTransientFailures}): each run re-reads on GitLab the merge requests of at
 * most {@code reads} requests at rest whose merge request was closed (a fair scan of the ended requests, and a walk of
 * the replaced ones by step: {@link ClosedAtRest}), and schedules the close of one found open. A GitLab merge request
 * event that reopens one schedules the same close at once (WakeOnGitLabEvent); this job is the fallback for a lost one.
 * A GitLab failure ends this run's re-check (the scan comes back to the rest later). Design: docs/workflow.md "A merge
 * request reopened after its request ended".
 */
final class CloseReopenedMergeRequests {

    /** GitLab reads per run (each a {@link MergeRequests#get}): the job's budget for this re-check. */
    static final int DEFAULT_READS = 20;
    /** The scan's name in {@link ScanCursors} (ended requests). */
    static final String SCAN = "close-reopened-merge-requests";
    /** The walk's name in {@link ScanCursors} (replaced requests, by operation ID). */
    static final String DETACHED_SCAN = "close-reopened-merge-requests-detached";

    private static final System.Logger LOG = System.getLogger(CloseReopenedMergeRequests.class.getName());

    private final MergeRequests mergeRequests;
    private final WorkQueue queue;
    private final FairScan scan;
    private final DetachedWalk detached;

    CloseReopenedMergeRequests(Operations operations, MergeRequests mergeRequests, WorkQueue queue, ScanCursors cursors) {
        this.mergeRequests = mergeRequests;
        this.queue = queue;
        this.scan = new FairScan(operations, cursors, SCAN);
        this.detached = new DetachedWalk(operations, cursors, DETACHED_SCAN);
    }

    /** One run: at most {@code reads} GitLab reads; answers how many closes it scheduled. */
    int run(int reads) {
        var half = Math.max(1, reads / 2);
        var candidates = new ArrayList<>(scan.next(ClosedAtRest.ENDED, Duration.ZERO, half));
        candidates.addAll(detached.next(ClosedAtRest.STEPS, Math.max(1, reads - half)));
        var scheduled = 0;
        for (var op : candidates) {
            if (!ClosedAtRest.holds(op) || queue.isScheduled(StepKind.CLOSE, op.id().value())) {
                continue;
            }
            var mr = op.mergeRequest().get();
            MergeRequestState state;
            try {
                state = mergeRequests.get(mr.project(), mr.iid()).state();
            } catch (ExternalCallException failed) {
                // GitLab is failing: the rest of this page waits for a later turn of the scan, the job's other work runs
                LOG.log(Level.INFO, () -> "re-reading merge request !" + mr.iid() + " of " + op.id() + " failed: "
                        + failed.getMessage() + "; the re-check of reopened merge requests stops for this run");
                break;
            }
            if (state == MergeRequestState.OPENED && queue.schedule(Step.first(StepKind.CLOSE, op.id().value()), Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "merge request !" + mr.iid() + " of " + op.id() + " is open again although its"
                        + " request ended " + op.binding().map(BindingStatus::name).orElse("(replaced)") + "; closing it");
                scheduled++;
            }
        }
        return scheduled;
    }
}
