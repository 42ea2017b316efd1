package io.changeflow.application.port.out;

import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Deliveries of external callbacks: deduplication by the callback's own ID, and the deploy
 * pipeline's reports that reconciliation compares against. Only a report with the status
 * {@link #IN_EFFECT} says a merge request is in effect; reports of any other status are kept for the
 * record and never count as deployed.
 */
public interface CallbackInbox {

    /** The deploy report status that means "in effect" (compared exactly: callers normalise what they receive). */
    String IN_EFFECT = "success";

    /**
     * Records a delivery by its own ID (e.g. the approval callback's requestId).
     *
     * @return true for the first delivery, false for a duplicate (the unique key answered)
     */
    boolean firstDelivery(String source, String deliveryId);

    /** Forgets a delivery whose processing failed, so the sender's retry is processed. */
    void forget(String source, String deliveryId);

    /**
     * Stores a deploy report. Idempotent by {@code deliveryId}: a second delivery with the same ID is
     * ignored, whatever it says. Only a report whose {@code status} is {@link #IN_EFFECT} is a deploy
     * watermark (it may raise {@link #largestDeployedIid}) and names its operations deployed
     * ({@link #deployedOperations}); a report of any other status is stored for the record only and never
     * raises the watermark or counts an operation as deployed.
     *
     * @param status       the report's status; {@link #IN_EFFECT} means in effect, anything else does not
     * @param operationIds the operations the report names, when the pipeline sends them (exact matching)
     */
    void recordDeploy(String deliveryId, String project, long mrIid, String status, List<OperationId> operationIds);

    /**
     * The deploy watermark of {@code project}: the largest merge request number of a report with the
     * status {@link #IN_EFFECT} (reports of other statuses are ignored). One index read.
     *
     * @return empty when no {@link #IN_EFFECT} report of {@code project} is stored
     */
    OptionalLong largestDeployedIid(String project);

    /** Which of {@code ids} a report with the status {@link #IN_EFFECT} named explicitly. */
    Set<OperationId> deployedOperations(Collection<OperationId> ids);
}
