package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.TransientRetries;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The part of {@link RetryTransientFailures} that retries failed closes: a request that ended (REJECTED, CLOSED)
 * whose close step failed (CLOSE_FAILED) still has its merge request open on GitLab, where anyone with rights can
 * merge it. Its close is run again with backoff ({@link TransientRetries}) until the transient deadline, counted from
 * the first failed close, with one last attempt at or after the deadline; then the request moves to CLOSE_GAVE_UP with
 * a note saying the merge request is a person's to close (an operator's re-trigger starts a new stretch of closes).
 * A close that never ran (its launch or its task was lost: the request still at the step that ended it, or at
 * CLOSE_STARTED, with a merge request of its own and no close waiting) is scheduled once it is {@link #GRACE} old.
 * Requests a re-application or their subject's own request replaced (detached: they own no row, so the scan by status
 * never sees them) are read by step ({@link Operations#detachedAt}) and get the same treatment (finding S3).
 * Design: docs/workflow.md.
 */
final class RetryFailedCloses {

    /** The scan's name in {@link ScanCursors}. */
    static final String SCAN = "retry-failed-closes";
    /**
     * How the note of a close this job gave up on begins. Before CLOSE_GAVE_UP existed the note was written on a last
     * CLOSE_FAILED: such a close is not retried again either.
     */
    static final String GAVE_UP = "Gave up closing merge request";

    private static final System.Logger LOG = System.getLogger(RetryFailedCloses.class.getName());

    /** The scan of detached requests' closes: its position in {@link ScanCursors} (an operation ID). */
    static final String DETACHED_SCAN = "retry-failed-closes-detached";
    /**
     * How old the last write of a request whose close never ran must be before this job schedules it: the step that
     * ended the request launches its close right after its write, this job does not race it.
     */
    static final Duration GRACE = Duration.ofMinutes(1);

    private static final Set<BindingStatus> ENDED = Set.copyOf(EnumSet.of(BindingStatus.REJECTED, BindingStatus.CLOSED));
    /**
     * The steps at which an ended request may still owe the close of its merge request: those that ended it without a
     * merge (the close is launched right after) and a close under way whose task was lost; and a failed close.
     */
    private static final Set<StepStatus> OWING = Set.copyOf(EnumSet.of(StepStatus.APPROVAL_REJECTED,
            StepStatus.APPROVAL_WITHDRAWN, StepStatus.SUPERSEDED_BY_SUBJECT, StepStatus.CLOSE_STARTED,
            StepStatus.CLOSE_FAILED));

    private final Operations operations;
    private final WorkQueue queue;
    private final StateChanges changes;
    private final TransientRetries retries;
    private final FairScan scan;
    private final DetachedWalk detached;

    RetryFailedCloses(Operations operations, WorkQueue queue, StateChanges changes, TransientRetries retries,
                      ScanCursors cursors) {
        this.operations = operations;
        this.queue = queue;
        this.changes = changes;
        this.retries = retries;
        this.scan = new FairScan(operations, cursors, SCAN);
        this.detached = new DetachedWalk(operations, cursors, DETACHED_SCAN);
    }

    /**
     * One run over at most {@code limit} ended requests, and at most {@code limit} detached ones: what it scheduled and
     * gave up on.
     */
    RetryTransientFailures.Result run(int limit) {
        var scheduled = 0;
        var gaveUp = 0;
        var candidates = new java.util.ArrayList<>(scan.next(ENDED, Duration.ZERO, limit));
        candidates.addAll(nextDetached(limit));
        for (var op : candidates) {
            if (!OWING.contains(op.step()) || queue.isScheduled(StepKind.CLOSE, op.id().value())) {
                continue;
            }
            if (op.step() != StepStatus.CLOSE_FAILED) {
                // its close never ran or its task was lost: the close step reads the merge request first
                var ownMergeRequest = op.mergeRequest().isPresent() && op.batchId().isEmpty() && !op.kind().removes();
                if (ownMergeRequest && op.updatedAt().plus(GRACE).isBefore(retries.now())
                        && queue.schedule(Step.first(StepKind.CLOSE, op.id().value()), Duration.ZERO)) {
                    scheduled++;
                }
                continue;
            }
            var stretch = stretchOf(operations.history(op.id()));
            if (stretch.isEmpty()) {
                continue;
            }
            var since = stretch.get().since();
            var delay = retries.afterFailure(stretch.get().attempts(), since);
            var end = retries.givesUpAt(since);
            var wait = delay.map(d -> Duration.between(retries.now(), stretch.get().lastFailure().plus(d)));
            if (delay.isEmpty() || end.isPresent() && !retries.now().isBefore(end.get())) {
                // one last attempt at or after the deadline: a job that could not run for a while (a restart, a
                // backlog) does not give up on a merge request GitLab would close by now
                if (end.isPresent() && stretch.get().lastFailure().isBefore(end.get())) {
                    wait = Optional.of(Duration.ZERO);
                } else {
                    if (giveUp(op, stretch.get())) {
                        gaveUp++;
                    }
                    continue;
                }
            }
            if (queue.schedule(Step.first(StepKind.CLOSE, op.id().value()),
                    wait.get().isNegative() ? Duration.ZERO : wait.get())) {
                scheduled++;
            }
        }
        return new RetryTransientFailures.Result(scheduled, gaveUp);
    }

    /** The next page of detached requests at a step that may owe a close, walked by operation ID across runs. */
    private List<Operation> nextDetached(int limit) {
        return detached.next(OWING, limit);
    }

    /**
     * The current stretch of failed closes (oldest first in {@code history}): empty when the last entry is no failed
     * close, or when this job already gave up on it.
     */
    static Optional<RetryTransientFailures.Stretch> stretchOf(List<HistoryEntry> history) {
        var attempts = 0;
        HistoryEntry first = null;
        HistoryEntry last = null;
        for (var i = history.size() - 1; i >= 0; i--) {
            var entry = history.get(i);
            if (entry.toStep() == StepStatus.CLOSE_FAILED) {
                attempts++;
                first = entry;
                if (last == null) {
                    last = entry;
                }
            } else if (entry.toStep() != StepStatus.CLOSE_STARTED || last == null) {
                break;
            }
        }
        if (last == null || last.detail().startsWith(GAVE_UP)) {
            return Optional.empty();
        }
        return Optional.of(new RetryTransientFailures.Stretch(attempts, first.at(), last.at()));
    }

    private boolean giveUp(Operation op, RetryTransientFailures.Stretch stretch) {
        var mr = op.mergeRequest().map(ref -> "!" + ref.iid() + " of " + ref.project()).orElse("(none recorded)");
        var note = GAVE_UP + " " + mr + " after " + retries.deadlineText() + " of automatic retries ("
                + stretch.attempts() + " attempts); the last failure: " + op.detail() + " GitLab never confirmed it closed: look "
                + "at it on GitLab and close it there by hand if it is open (nobody may merge it, the request ended "
                + op.binding().map(BindingStatus::name).orElse("and was replaced by a newer request") + "), or re-trigger the close"
                + " once GitLab is healthy.";
        try {
            changes.apply(op, WorkflowEvent.CLOSE_GAVE_UP, note);
            LOG.log(Level.ERROR, () -> op.id() + ": " + note);
            return true;
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            LOG.log(Level.INFO, () -> op.id() + " moved on since it was read; not giving up on its close");
            return false;
        }
    }
}
