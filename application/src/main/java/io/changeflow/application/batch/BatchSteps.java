package io.changeflow.application.batch;

import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StepSafetyNet;
import io.changeflow.domain.polling.RetryPolicy;
import java.util.List;

/**
 * The two batch steps as {@link RunDueStep} runs them: {@link StepKind#BATCH} ({@link MergeBatch})
 * and {@link StepKind#SETTLE_BATCH} ({@link SettleBatchStep}), each with the usual retries of transient
 * failures and lost races, and its own ending after an unexpected failure (the batch goes to
 * settlement; a failed settlement is left to the timeout sweep or an operator).
 */
public final class BatchSteps {

    private BatchSteps() {
    }

    public static List<StepSafetyNet> of(MergeBatch merge, SettleBatchStep settle, RetryPolicy transientRetry) {
        return List.of(
                new StepSafetyNet(StepKind.BATCH, merge, MergeBatch::onFailure, transientRetry),
                new StepSafetyNet(StepKind.SETTLE_BATCH, settle, SettleBatchStep::onFailure, transientRetry));
    }
}
