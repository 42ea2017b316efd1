package io.changeflow.application.query;

import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Scheduled;
import io.changeflow.application.query.RequestWait.WaitingFor;
import io.changeflow.application.recovery.FindOverdueRequests.Deadlines;
import io.changeflow.application.recovery.RetryTransientFailures;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.application.workflow.StepSafetyNet;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence.Deadline;
import io.changeflow.domain.state.StepStatus;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Works out a request's {@link RequestWait}: who acts next, since when and until when, from its state, its
 * history and its scheduled step (read through {@link WorkQueue#scheduled}). Read-only; when the work queue
 * cannot be read the wait is shown without its next attempt.
 */
public final class RequestWaits {

    private static final System.Logger LOG = System.getLogger(RequestWaits.class.getName());

    private final WorkQueue queue;
    private final WorkflowPolicy policy;
    private final Deadlines deadlines;

    /** @param deadlines the durations the owning jobs act on (a wait on the approver or the deploy report ends there) */
    public RequestWaits(WorkQueue queue, WorkflowPolicy policy, Deadlines deadlines) {
        this.queue = queue;
        this.policy = policy;
        this.deadlines = deadlines;
    }

    /** The wait of {@code op}; empty when nobody is expected to act (finished, rejected, closed, replaced). */
    public Optional<RequestWait> of(Operation op, List<HistoryEntry> history) {
        return of(op, history, scheduledFor(op));
    }

    /**
     * The scheduled step that {@link #of(Operation, List)} shows for {@code op} (its next attempt, and the retries or
     * pending wait its data records): read from the work queue only while someone is expected to act and the service
     * is the one to move; empty otherwise, or when the queue cannot be read. Besides the operation this is the only
     * input of the wait that can change without a state write (a rescheduled look), so a request view's version
     * ({@link ShowChangeRequest#version}) includes it.
     */
    public Optional<Scheduled> scheduledFor(Operation op) {
        if (!expectsSomeone(op) || op.hint() == Hint.CONTACT_MAINTAINERS) {
            return Optional.empty();
        }
        return scheduledStep(op);
    }

    /** The wait of {@code op} with {@code scheduled} as read by {@link #scheduledFor(Operation)}. */
    Optional<RequestWait> of(Operation op, List<HistoryEntry> history, Optional<Scheduled> scheduled) {
        if (!expectsSomeone(op)) {
            return Optional.empty();
        }
        var status = op.binding().orElseThrow();
        if (op.hint() == Hint.CONTACT_MAINTAINERS) {
            return Optional.of(RequestWait.on(WaitingFor.MAINTAINERS, op.updatedAt()));
        }
        var due = scheduled.map(Scheduled::due);
        BiFunction<WaitingFor, Instant, RequestWait> looked = (waitingFor, since) -> {
            var wait = RequestWait.on(waitingFor, since);
            return due.map(wait::next).orElse(wait);
        };
        if (status.isFailed()) {
            var stretch = RetryTransientFailures.stretchOf(history);
            var since = stretch.map(RetryTransientFailures.Stretch::since).orElse(op.updatedAt());
            return Optional.of(looked.apply(WaitingFor.SERVICE, since).until(since.plus(policy.transientDeadline()))
                    .failing("service"));
        }
        var retrying = scheduled.flatMap(s -> StepSafetyNet.retrying(s.step()));
        if (retrying.isPresent()) {
            var since = retrying.get().since();
            return Optional.of(looked.apply(WaitingFor.SERVICE, since).until(since.plus(policy.transientDeadline()))
                    .failing(retrying.get().system()));
        }
        if (NextAction.PENDING.contains(op.step()) && op.step() != StepStatus.BATCH_PENDING) {
            var since = scheduled.flatMap(s -> PipelineWatch.pendingSince(s.step())).orElse(op.updatedAt());
            return Optional.of(looked.apply(WaitingFor.PIPELINE, since).until(since.plus(policy.pendingGiveUpAfter()))
                    .every(policy.pendingRecheck()));
        }
        return Optional.of(switch (status) {
            case APPROVAL_SENT -> RequestWait.on(WaitingFor.APPROVER, op.updatedAt())
                    .until(op.expiresAt().map(expiry -> deadlines.dueAt(Deadline.APPROVAL, op.updatedAt(), expiry))
                            .orElseGet(() -> deadlines.dueAt(Deadline.APPROVAL, op.updatedAt())));
            case MERGED -> RequestWait.on(WaitingFor.DEPLOY_PIPELINE, op.updatedAt())
                    .until(deadlines.dueAt(Deadline.DEPLOY, op.updatedAt()));
            case BATCHED -> RequestWait.on(op.step() == StepStatus.BATCH_PENDING ? WaitingFor.PIPELINE : WaitingFor.SERVICE,
                    op.updatedAt());
            case MR_CREATING -> op.step() == StepStatus.CREATE_MR_OPENED
                    // the pipeline is watched until its timeout, then while pending until the pending deadline
                    ? looked.apply(WaitingFor.PIPELINE, op.updatedAt()).until(op.updatedAt()
                            .plus(policy.pipelinePolling().timeout()).plus(policy.pendingGiveUpAfter()))
                    : looked.apply(WaitingFor.SERVICE, op.updatedAt());
            default -> looked.apply(WaitingFor.SERVICE, op.updatedAt());
        });
    }

    private static boolean expectsSomeone(Operation op) {
        return op.binding().isPresent() && !op.binding().get().isReappliable()
                && op.binding().get() != BindingStatus.VALIDATED;
    }

    /**
     * Who acts next on {@code op}, from its state alone (no history, no work queue read): what the list views show
     * (the requester's home, My records). The same as {@link #of}'s {@code waitingFor} except while a step is being
     * retried after transient failures, which only the scheduled step tells ({@link WaitingFor#SERVICE} then).
     * Empty when nobody is expected to act (in effect, finished, rejected, closed, replaced).
     */
    public static Optional<WaitingFor> ownerOf(Operation op) {
        if (!expectsSomeone(op)) {
            return Optional.empty();
        }
        if (op.hint() == Hint.CONTACT_MAINTAINERS) {
            return Optional.of(WaitingFor.MAINTAINERS);
        }
        var status = op.binding().get();
        if (status.isFailed()) {
            return Optional.of(WaitingFor.SERVICE);
        }
        if (NextAction.PENDING.contains(op.step()) && op.step() != StepStatus.BATCH_PENDING) {
            return Optional.of(WaitingFor.PIPELINE);
        }
        return Optional.of(switch (status) {
            case APPROVAL_SENT -> WaitingFor.APPROVER;
            case MERGED -> WaitingFor.DEPLOY_PIPELINE;
            case BATCHED -> op.step() == StepStatus.BATCH_PENDING ? WaitingFor.PIPELINE : WaitingFor.SERVICE;
            case MR_CREATING -> op.step() == StepStatus.CREATE_MR_OPENED ? WaitingFor.PIPELINE : WaitingFor.SERVICE;
            default -> WaitingFor.SERVICE;
        });
    }

    private Optional<Scheduled> scheduledStep(Operation op) {
        var kind = StepToResume.of(op);
        if (kind.isEmpty()) {
            return Optional.empty();
        }
        try {
            return queue.scheduled(kind.get(), op.id().value());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "the work queue could not be read for " + op.id() + "; showing the wait without "
                    + "its next attempt (" + e.getClass().getSimpleName() + ")");
            return Optional.empty();
        }
    }
}
