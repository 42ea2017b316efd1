package io.changeflow.application.port.out;

import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Deliveries of external callbacks: deduplication by the callback's own ID, and the deploy
 * pipeline's reports that reconciliation compares against.
 */
public interface CallbackInbox {

    /**
     * Records a delivery by its own ID (e.g. the approval callback's requestId).
     *
     * @return true for the first delivery, false for a duplicate (the unique key answered)
     */
    boolean firstDelivery(String source, String deliveryId);

    /** Forgets a delivery whose processing failed, so the sender's retry is processed. */
    void forget(String source, String deliveryId);

    /**
     * Stores a deploy report. Idempotent by {@code deliveryId}.
     *
     * @param operationIds the operations the report names, when the pipeline sends them (exact matching)
     */
    void recordDeploy(String deliveryId, String project, long mrIid, String status, List<OperationId> operationIds);

    /** The largest merge request number reported deployed in {@code project} (an index read). */
    OptionalLong largestDeployedIid(String project);

    /** Which of {@code ids} a deploy report named explicitly. */
    Set<OperationId> deployedOperations(Collection<OperationId> ids);
}
