package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Hands a step to the durable work queue from outside a running step (submission, callbacks). When the bounded queue
 * refuses, the step's declared failure state (hint KEEP_WAITING) is written right away, so the requester sees an
 * explicit failure instead of "processing" forever (docs/workflow.md, "Durable steps").
 */
public final class StepLauncher {

    static final String OVERLOADED = "The system is overloaded and could not queue this step; it is retried automatically "
            + "once the backlog drains.";

    private static final System.Logger LOG = System.getLogger(StepLauncher.class.getName());

    private final WorkQueue queue;
    private final StateChanges changes;

    public StepLauncher(WorkQueue queue, StateChanges changes) {
        this.queue = queue;
        this.changes = changes;
    }

    /**
     * Schedules the first run of {@code kind} for {@code id} now.
     *
     * @param failEvent written (if the table allows it) when the backlog is full
     * @return true when scheduled; false when refused and the failure was written
     */
    public boolean launch(OperationId id, StepKind kind, WorkflowEvent failEvent) {
        if (queue.schedule(Step.first(kind, id.value()), Duration.ZERO)) {
            return true;
        }
        return refused(id, kind, failEvent);
    }

    private boolean refused(OperationId id, StepKind kind, WorkflowEvent failEvent) {
        LOG.log(Level.WARNING, () -> "work queue full: " + kind + " for " + id + " refused; writing " + failEvent);
        changes.applyIfAllowed(id, failEvent, OVERLOADED);
        return false;
    }

    /**
     * {@link #launch} for the first step of a request just opened ({@link WorkQueue#scheduleFirst}): nothing of
     * this kind is scheduled for it yet.
     */
    public boolean launchFirst(OperationId id, StepKind kind, WorkflowEvent failEvent) {
        if (queue.scheduleFirst(Step.first(kind, id.value()))) {
            return true;
        }
        return refused(id, kind, failEvent);
    }

    /**
     * Schedules closing of the operation's merge request. When refused, records the close as started
     * and failed, so the still open merge request is visible to operators.
     */
    public boolean launchClose(OperationId id) {
        if (queue.schedule(Step.first(StepKind.CLOSE, id.value()), Duration.ZERO)) {
            return true;
        }
        LOG.log(Level.WARNING, () -> "work queue full: CLOSE for " + id + " refused; recording the close as failed");
        changes.applyIfAllowed(id, WorkflowEvent.CLOSE_STARTED, "Closing the merge request.");
        changes.applyIfAllowed(id, WorkflowEvent.CLOSE_FAILED, OVERLOADED);
        return false;
    }

    /**
     * Schedules the close of a request that a re-application just replaced while its close was still owed (failed, or
     * its task lost): detached, no job finds it any more. Nothing is scheduled when a close already waits.
     */
    public boolean launchOwedClose(OperationId id) {
        return queue.isScheduled(StepKind.CLOSE, id.value()) || launchClose(id);
    }
}
