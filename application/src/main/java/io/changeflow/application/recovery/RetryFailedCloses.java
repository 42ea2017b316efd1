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

    private static final Set<BindingStatus> ENDED = Set.copyOf(EnumSet.of(BindingStatus.REJECTED, BindingStatus.CLOSED));

    private final Operations operations;
    private final WorkQueue queue;
    private final StateChanges changes;
    private final TransientRetries retries;
    private final FairScan scan;

    RetryFailedCloses(Operations operations, WorkQueue queue, StateChanges changes, TransientRetries retries,
                      ScanCursors cursors) {
        this.operations = operations;
        this.queue = queue;
        this.changes = changes;
        this.retries = retries;
        this.scan = new FairScan(operations, cursors, SCAN);
    }

    /** One run over at most {@code limit} ended requests: what it scheduled and gave up on. */
    RetryTransientFailures.Result run(int limit) {
        var scheduled = 0;
        var gaveUp = 0;
        for (var op : scan.next(ENDED, Duration.ZERO, limit)) {
            if (op.step() != StepStatus.CLOSE_FAILED || queue.isScheduled(StepKind.CLOSE, op.id().value())) {
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
                + op.binding().orElseThrow() + "), or re-trigger the close once GitLab is healthy.";
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
