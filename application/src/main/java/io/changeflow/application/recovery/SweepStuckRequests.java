package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The timeout sweep for every "in progress" state of a single request: nothing stays "processing" without
 * an explicit state, even when a task was lost. Fair scans ({@link Operations#scan}); every write pinned to
 * the version read. The two passes: docs/workflow.md.
 */
public final class SweepStuckRequests {

    private static final System.Logger LOG = System.getLogger(SweepStuckRequests.class.getName());

    private static final Set<BindingStatus> STEPPING = Set.copyOf(EnumSet.of(BindingStatus.APPROVAL_SENDING,
            BindingStatus.MR_CREATING, BindingStatus.MR_CREATED, BindingStatus.MERGING));
    private static final Set<BindingStatus> QUIET = Set.copyOf(EnumSet.of(BindingStatus.APPROVAL_SENDING,
            BindingStatus.MR_CREATING, BindingStatus.MR_CREATED, BindingStatus.MERGING, BindingStatus.BATCH_WAITING));

    /** The two scans' names in {@link ScanCursors}. */
    public static final String FAIL_SCAN = "sweep-stuck-requests.fail";
    public static final String LOST_TASK_SCAN = "sweep-stuck-requests.lost-task";

    /**
     * @param lostTaskAfter quiet this long without a task: schedule the step again
     * @param failAfter     quiet this long: write the declared failure (must exceed the longest silent wait of a step)
     * @param limit         requests per pass
     */
    public record Policy(Duration lostTaskAfter, Duration failAfter, int limit) {
        public Policy {
            Objects.requireNonNull(lostTaskAfter, "lostTaskAfter");
            Objects.requireNonNull(failAfter, "failAfter");
            if (failAfter.compareTo(lostTaskAfter) <= 0 || limit < 1) {
                throw new IllegalArgumentException("need lostTaskAfter < failAfter and a positive limit");
            }
        }

        public static Policy defaults() {
            return new Policy(Duration.ofMinutes(10), Duration.ofHours(2), 200);
        }
    }

    /** One sweep run (no parameters: the policy says everything). */
    public record Command() {}

    /** What one run did. */
    public record Result(int failed, int rescheduled, int readmitted) {}

    private final FairScan failScan;
    private final FairScan lostTaskScan;
    private final Targets targets;
    private final Batches batches;
    private final WorkQueue queue;
    private final StateChanges changes;
    private final Policy policy;

    public SweepStuckRequests(Operations operations, Targets targets, Batches batches, WorkQueue queue,
                              StateChanges changes, ScanCursors cursors, Policy policy) {
        this.failScan = new FairScan(operations, cursors, FAIL_SCAN);
        this.lostTaskScan = new FairScan(operations, cursors, LOST_TASK_SCAN);
        this.targets = targets;
        this.batches = batches;
        this.queue = queue;
        this.changes = changes;
        this.policy = policy;
    }

    public Result sweep(Command command) {
        var failed = 0;
        for (var op : failScan.next(STEPPING, policy.failAfter(), policy.limit())) {
            if (!NextAction.PENDING.contains(op.step()) && declareFailure(op)) {
                failed++;
            }
        }
        var rescheduled = 0;
        var readmitted = 0;
        for (var op : lostTaskScan.next(QUIET, policy.lostTaskAfter(), policy.limit())) {
            if (op.binding().equals(Optional.of(BindingStatus.BATCH_WAITING))) {
                var target = targets.find(op.target());
                if (batches.admit(op.id(), target.map(t -> t.partitionOf(op.kind())).orElse(Target.DEFAULT_PARTITION))) {
                    readmitted++;
                }
                continue;
            }
            // a pipeline pending (CREATE_/HANDLE_PIPELINE_PENDING) is watched by its step: a lost watch is resumed
            // like any lost step (issue 36), and the resumed watch ends it explicitly at the pending deadline
            var kind = StepToResume.of(op);
            if (kind.isPresent() && !queue.isScheduled(kind.get(), op.id().value())
                    && queue.schedule(Step.first(kind.get(), op.id().value()), Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> op.id() + " lost its " + kind.get() + " task; scheduled again");
                rescheduled++;
            }
        }
        return new Result(failed, rescheduled, readmitted);
    }

    private boolean declareFailure(Operation op) {
        var detail = "No progress for " + policy.failAfter().toMinutes() + " minutes; an operator can re-trigger it.";
        var events = switch (op.binding().orElseThrow()) {
            case APPROVAL_SENDING -> List.of(WorkflowEvent.APPROVAL_SUBMIT_FAILED);
            case MR_CREATING -> List.of(op.step() == StepStatus.CREATE_MR_OPENED
                    ? WorkflowEvent.MR_PIPELINE_TIMED_OUT : WorkflowEvent.CREATE_ERROR);
            case MR_CREATED -> op.order() == StepOrder.APPROVE_FIRST
                    ? List.of(WorkflowEvent.HANDLE_ERROR)
                    : List.of(WorkflowEvent.APPROVAL_REQUESTED, WorkflowEvent.APPROVAL_SUBMIT_FAILED);
            default -> List.of(WorkflowEvent.HANDLE_ERROR);
        };
        // pinned to the version read: a request that progressed since the scan read it is never overwritten
        var current = op;
        try {
            for (var event : events) {
                current = changes.apply(current, event, detail);
            }
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            LOG.log(Level.INFO, () -> op.id() + " moved on since the sweep read it at " + op.state() + "; skipped");
            return false;
        }
        LOG.log(Level.WARNING, () -> op.id() + " made no progress at " + op.state() + "; wrote " + events.getLast());
        return true;
    }
}
