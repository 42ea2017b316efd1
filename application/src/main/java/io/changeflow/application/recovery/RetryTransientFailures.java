package io.changeflow.application.recovery;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.TransientRetries;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Makes {@link Hint#KEEP_WAITING} true for failed requests: a recurring job that re-runs the resumable step
 * of each failed request whose hint is KEEP_WAITING, with backoff ({@link TransientRetries}), until the
 * transient deadline; then it writes the "gave up" state. It also retries the failed close of a request that ended
 * with its merge request still open ({@link RetryFailedCloses}), and closes again a merge request a person reopened after
 * its request ended ({@link CloseReopenedMergeRequests}, finding S9). Design: docs/workflow.md.
 */
public final class RetryTransientFailures {

    /** The requests looked at per run. */
    public static final int DEFAULT_LIMIT = 500;
    /** The scan's name in {@link ScanCursors}. */
    public static final String SCAN = "retry-transient-failures";

    private static final System.Logger LOG = System.getLogger(RetryTransientFailures.class.getName());

    private static final Set<BindingStatus> FAILED = Set.copyOf(EnumSet.of(BindingStatus.APPROVAL_FAILED,
            BindingStatus.CREATE_FAILED, BindingStatus.HANDLE_FAILED));

    /** The start events of resumed steps: part of an attempt, no progress. */
    private static final Set<WorkflowEvent> RESTARTS = Set.copyOf(EnumSet.of(WorkflowEvent.CREATE_STARTED,
            WorkflowEvent.HANDLE_STARTED, WorkflowEvent.APPROVAL_REQUESTED));

    /** One run (no parameters). */
    public record Command() {}

    /**
     * What one run did.
     *
     * @param scheduled requests whose step (or failed close) was scheduled for its next attempt
     * @param gaveUp    requests moved to their "gave up" state (CONTACT_MAINTAINERS), or whose close was given up
     */
    public record Result(int scheduled, int gaveUp) {}

    /**
     * Where a failed request stands in its stretch of automatic retries.
     *
     * @param attempts      failures in the stretch
     * @param since         the first failure of the stretch
     * @param lastFailure   the latest failure
     */
    public record Stretch(int attempts, Instant since, Instant lastFailure) {}

    private final Operations operations;
    private final WorkQueue queue;
    private final StateChanges changes;
    private final TransientRetries retries;
    private final FairScan scan;
    private final RetryFailedCloses closes;
    private final CloseReopenedMergeRequests reopened;
    private final int limit;

    public RetryTransientFailures(Operations operations, MergeRequests mergeRequests, WorkQueue queue,
                                  StateChanges changes, TransientRetries retries, ScanCursors cursors, int limit) {
        this.operations = operations;
        this.queue = queue;
        this.changes = changes;
        this.retries = retries;
        this.scan = new FairScan(operations, cursors, SCAN);
        this.closes = new RetryFailedCloses(operations, queue, changes, retries, cursors);
        this.reopened = new CloseReopenedMergeRequests(operations, mergeRequests, queue, cursors);
        this.limit = limit < 1 ? DEFAULT_LIMIT : limit;
    }

    public Result run(Command command) {
        var failedCloses = closes.run(limit);
        var scheduled = failedCloses.scheduled();
        var gaveUp = failedCloses.gaveUp();
        for (var op : scan.next(FAILED, Duration.ZERO, limit)) {
            var kind = retriedStep(op);
            if (kind.isEmpty() || queue.isScheduled(kind.get(), op.id().value())) {
                continue;
            }
            var stretch = stretchOf(operations.history(op.id()));
            if (stretch.isEmpty()) {
                continue;
            }
            // The deadline alone decides here, without the floor of attempts: a backlog that never drains runs no
            // attempt at all, and still ends at the deadline.
            var delay = retries.afterFailure(stretch.get().attempts(), stretch.get().since());
            var end = retries.givesUpAt(stretch.get().since());
            if (delay.isEmpty() || end.isPresent() && !retries.now().isBefore(end.get())) {
                if (giveUp(op, kind.get(), stretch.get())) {
                    gaveUp++;
                }
                continue;
            }
            var due = stretch.get().lastFailure().plus(delay.get());
            var wait = Duration.between(retries.now(), due);
            if (queue.schedule(Step.first(kind.get(), op.id().value()), wait.isNegative() ? Duration.ZERO : wait)) {
                LOG.log(Level.INFO, () -> op.id() + " is " + op.state() + "; attempt " + (stretch.get().attempts() + 1)
                        + " of " + kind.get() + " at " + due);
                scheduled++;
            }
        }
        scheduled += reopened.run(CloseReopenedMergeRequests.DEFAULT_READS);
        return new Result(scheduled, gaveUp);
    }

    /**
     * The step this job re-runs for {@code op}: only a failed request whose hint is KEEP_WAITING, and never a
     * batch member (it goes back through its batch).
     */
    public static Optional<StepKind> retriedStep(Operation op) {
        if (op.binding().isEmpty() || !FAILED.contains(op.binding().get()) || op.hint() != Hint.KEEP_WAITING) {
            return Optional.empty();
        }
        return StepToResume.of(op).filter(kind -> TransientRetries.gaveUpEvent(kind).isPresent());
    }

    /** The current stretch of failures, from the history (oldest first); empty when the last entry is no failure. */
    public static Optional<Stretch> stretchOf(List<HistoryEntry> history) {
        var attempts = 0;
        Instant since = null;
        Instant last = null;
        for (var i = history.size() - 1; i >= 0; i--) {
            var entry = history.get(i);
            if (entry.toBinding().filter(FAILED::contains).isPresent()) {
                attempts++;
                since = entry.at();
                if (last == null) {
                    last = entry.at();
                }
            } else if (!RESTARTS.contains(entry.event()) || last == null) {
                break;
            }
        }
        return attempts == 0 ? Optional.empty() : Optional.of(new Stretch(attempts, since, last));
    }

    private boolean giveUp(Operation op, StepKind kind, Stretch stretch) {
        var event = TransientRetries.gaveUpEvent(kind).orElseThrow();
        var note = "Gave up after " + retries.deadlineText() + " of automatic retries (" + stretch.attempts()
                + " attempts); the last failure: " + op.detail() + " Check the request's timeline and the systems it "
                + "calls (GitLab, the approval system), then re-trigger the request or close it.";
        try {
            var after = changes.apply(op, event, note);
            LOG.log(Level.WARNING, () -> op.id() + " gave up after " + retries.deadlineText() + " of automatic retries: "
                    + after.state());
            return true;
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            LOG.log(Level.INFO, () -> op.id() + " moved on since it was read; not giving up on it");
            return false;
        }
    }
}
