package io.changeflow.application.approval;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RequestStepBody;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.domain.operation.Operation;
import java.lang.System.Logger.Level;

/**
 * The step {@link StepKind#CHECK_APPROVAL}: asks the approval system about one request now
 * ({@link ReconcileApprovals#checkNow}), what an operator's re-trigger of a request waiting for the
 * approver runs. Transient failures are retried by the safety net; when they are used up nothing is
 * written ({@link #onFailure}): the recurring approval check looks again.
 */
public final class CheckApprovalStep extends RequestStepBody {

    private static final System.Logger LOG = System.getLogger(CheckApprovalStep.class.getName());

    private final ReconcileApprovals check;

    public CheckApprovalStep(Operations operations, ReconcileApprovals check) {
        super(operations, LOG, "approval check step");
        this.check = check;
    }

    @Override
    protected StepOutcome run(Operation op, Step step) {
        var outcome = check.checkNow(op);
        LOG.log(Level.INFO, () -> "approval check of " + step.ref() + ": " + outcome);
        return StepOutcome.done();
    }

    /** Nothing to declare: the request keeps waiting and the recurring check asks again later. */
    public static StepOutcome onFailure(Step step, RuntimeException cause) {
        LOG.log(Level.WARNING, "approval check of " + step.ref() + " gave up; the recurring check looks again", cause);
        return StepOutcome.done();
    }
}
