package io.changeflow.application.close;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RequestStepBody;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.application.workflow.UnrecordedMergeRequest;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.batch.Settlement;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * The close step ({@link StepKind#CLOSE}): closes an operation's own merge request after the
 * approval was rejected or withdrawn in the create-first order (the binding already says REJECTED;
 * this is cleanup, recorded on the step layer only). Remote state first: a merge request already
 * closed or merged is not closed again. A merge request still open after closing is looked at again
 * a few times, then CLOSE_FAILED (safe to retry). A request that records no merge request may still have one on
 * GitLab (its create step failed after GitLab opened it, then the request ended, e.g. superseded by its subject's own
 * request: finding S8): it is looked up by the request's branch, recorded and closed ({@link UnrecordedMergeRequest}).
 */
public final class CloseMergeRequest extends RequestStepBody {

    static final Duration RECHECK = Duration.ofSeconds(30);

    private static final System.Logger LOG = System.getLogger(CloseMergeRequest.class.getName());

    private final MergeRequests mergeRequests;
    private final UnrecordedMergeRequest unrecorded;
    private final StateChanges changes;
    private final WorkflowPolicy policy;

    public CloseMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, StateChanges changes,
                             WorkflowPolicy policy) {
        super(operations, LOG, "close step");
        this.mergeRequests = mergeRequests;
        this.unrecorded = new UnrecordedMergeRequest(operations, targets, mergeRequests);
        this.changes = changes;
        this.policy = policy;
    }

    @Override
    protected StepOutcome run(Operation read, Step step) {
        if (read.step() != StepStatus.CLOSE_STARTED
                && changes.applyIfAllowed(read.id(), WorkflowEvent.CLOSE_STARTED, "Closing the merge request.").isEmpty()) {
            return nothingToDo(read);
        }
        var op = unrecorded.recordFoundOnGitLab(read, "close step of");
        if (op.mergeRequest().isEmpty()) {
            changes.applyIfAllowed(op.id(), WorkflowEvent.CLOSE_DONE, "There was no merge request to close.");
            return StepOutcome.done();
        }
        var mr = op.mergeRequest().get();
        return switch (Settlement.afterReread(mergeRequests.closeAndReread(mr.project(), mr.iid()))) {
            case FAILED -> {
                changes.applyIfAllowed(op.id(), WorkflowEvent.CLOSE_DONE, "Merge request !" + mr.iid() + " is closed.");
                yield StepOutcome.done();
            }
            case MERGED_WINS -> {
                LOG.log(Level.ERROR, () -> "merge request !" + mr.iid() + " of " + op.id() + " is merged although "
                        + "its request ended " + op.state() + "; an operator must look at it");
                changes.applyIfAllowed(op.id(), WorkflowEvent.CLOSE_DONE,
                        "Merge request !" + mr.iid() + " was already merged; it cannot be closed.");
                yield StepOutcome.done();
            }
            case RETRY_LATER -> {
                if (step.attempt() > policy.closeRetries()) {
                    changes.applyIfAllowed(op.id(), WorkflowEvent.CLOSE_FAILED,
                            "Merge request !" + mr.iid() + " is still open; closing can be retried.");
                    yield StepOutcome.done();
                }
                yield StepOutcome.again(step.nextAttempt(), RECHECK);
            }
        };
    }
}
