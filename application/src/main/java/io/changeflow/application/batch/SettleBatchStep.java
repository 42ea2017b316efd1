package io.changeflow.application.batch;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.batch.FailureKind;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * The settle step ({@link StepKind#SETTLE_BATCH}, ref = the batch id): {@link SettleBatch} for the
 * workflow, with the failure kind and reason the batch step (or the sweep) put in the step's data.
 * A merge request that is still open after being closed is looked at again a few times; after that
 * the step ends and the batch stays active for the timeout sweep or an operator (never leaked: it is a
 * visible RUNNING or BLOCKED batch holding its slot).
 */
public final class SettleBatchStep implements StepBody {

    static final String KIND = "kind";
    static final String REASON = "reason";
    static final String CHECKS = "closeChecks";
    static final String LAST_TRY = "lastTry";

    private static final System.Logger LOG = System.getLogger(SettleBatchStep.class.getName());

    private final SettleBatch settle;
    private final WorkflowPolicy policy;

    public SettleBatchStep(SettleBatch settle, WorkflowPolicy policy) {
        this.settle = settle;
        this.policy = policy;
    }

    /**
     * How the settle step ends after an unexpected error or used-up transient retries: it stops; the
     * batch stays active (RUNNING or BLOCKED, holding its slot, visible) and the timeout sweep or an
     * operator settles it later.
     */
    public static StepOutcome onFailure(Step step, RuntimeException cause) {
        LOG.log(Level.ERROR, "settle step " + step.instanceId() + " failed unexpectedly; the timeout sweep or an "
                + "operator settles the batch", cause);
        return StepOutcome.done();
    }

    /** The first run of settling {@code batchId}, a failure of a known kind. */
    public static Step first(long batchId, FailureKind kind, String reason) {
        return first(batchId, reason).with(KIND, kind.name());
    }

    /**
     * Issue 36: the batch sweep's settle of a batch (RUNNING or BLOCKED) past the batch timeout: when it still cannot be
     * settled, the batch is abandoned (FAILED, every member failed with the reason), so the partition's slot is free.
     */
    public static Step lastTry(long batchId, String reason) {
        return first(batchId, reason).with(LAST_TRY, "true");
    }

    /** Whether {@code step} is a {@link #lastTry}. */
    static boolean isLastTry(Step step) {
        return step.value(LAST_TRY).isPresent();
    }

    /** The first run of settling {@code batchId}, the kind of failure not known (the pipeline decides). */
    public static Step first(long batchId, String reason) {
        return Step.first(StepKind.SETTLE_BATCH, String.valueOf(batchId)).with(REASON, reason);
    }

    @Override
    public StepOutcome run(Step step) {
        long batchId;
        try {
            batchId = Long.parseLong(step.ref());
        } catch (NumberFormatException e) {
            LOG.log(Level.WARNING, () -> "settle step for '" + step.ref() + "', which is no batch id");
            return StepOutcome.done();
        }
        var reason = step.value(REASON).orElse("the batch step stopped");
        var result = settle.settle(isLastTry(step)
                ? SettleBatch.Command.lastTry(batchId, reason)
                : kindOf(step).map(kind -> SettleBatch.Command.bySystem(batchId, kind, reason))
                        .orElseGet(() -> SettleBatch.Command.bySystem(batchId, reason)));
        if (!(result instanceof SettleBatch.Result.RetryLater later)) {
            return StepOutcome.done();
        }
        var checks = step.intValue(CHECKS, 0) + 1;
        if (checks > policy.closeRetries()) {
            LOG.log(Level.WARNING, () -> "batch " + batchId + " could not be settled (" + later.reason()
                    + "); the timeout sweep or an operator settles it");
            return StepOutcome.done();
        }
        return StepOutcome.again(step.nextAttempt().with(CHECKS, checks), policy.mergeRetryDelay());
    }

    private static Optional<FailureKind> kindOf(Step step) {
        try {
            return step.value(KIND).map(FailureKind::valueOf);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
