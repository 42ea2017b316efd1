package io.changeflow.application.port.out;

import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

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
     * Forgets at most {@code limit} deliveries of {@code source} recorded more than {@code olderThan} ago (database
     * clock), oldest first: a repeat after that is processed again. Deliveries of other sources are kept.
     *
     * @return how many were forgotten
     */
    int forgetDeliveries(String source, java.time.Duration olderThan, int limit);

    /**
     * Processes a delivery once: {@code process} for its first delivery ({@link #firstDelivery}), which is forgotten
     * again if {@code process} throws ({@link #forget}, so the sender's retry is processed); {@code repeat} for a
     * duplicate.
     */
    default <T> T processOnce(String source, String deliveryId, Supplier<T> process, Supplier<T> repeat) {
        if (!firstDelivery(source, deliveryId)) {
            return repeat.get();
        }
        try {
            return process.get();
        } catch (RuntimeException e) {
            forget(source, deliveryId);
            throw e;
        }
    }

    /**
     * Stores a deploy report. Idempotent by {@code deliveryId}: a second delivery with the same ID is
     * ignored, whatever it says. Only a report whose {@code status} is {@link #IN_EFFECT} is a deploy
     * watermark (it may raise {@link #latestReportedMergeOrder}) and names its operations deployed
     * ({@link #deployedOperations}); a report of any other status is stored for the record only and never
     * raises the watermark or counts an operation as deployed.
     *
     * @param status       the report's status; {@link #IN_EFFECT} means in effect, anything else does not
     * @param operationIds the operations the report names, when the pipeline sends them (exact matching)
     */
    void recordDeploy(String deliveryId, String project, long mrIid, String status, List<OperationId> operationIds);

    /**
     * The largest merge request number of a report of {@code project} with the status {@link #IN_EFFECT}
     * (reports of other statuses are ignored). One index read. For the record only: merge request numbers
     * follow creation order, not merge order, so reconciliation never infers from them (it uses
     * {@link #latestReportedMergeOrder}).
     *
     * @return empty when no {@link #IN_EFFECT} report of {@code project} is stored
     */
    OptionalLong largestDeployedIid(String project);

    /** Which of {@code ids} a report with the status {@link #IN_EFFECT} named explicitly. */
    Set<OperationId> deployedOperations(Collection<OperationId> ids);

    /**
     * Which of {@code mergeRequests} (project and number compared) a report with the status {@link #IN_EFFECT}
     * named without naming any operation: exact evidence for the requests of that merge request. One query.
     */
    Set<MergeRequestRef> reportedWithoutOperationIds(Collection<MergeRequestRef> mergeRequests);

    /**
     * The deploy watermark of {@code project} in merge order: the latest merge order (see
     * {@link Operations#mergeOrders}), at least {@code notBelow}, of a merge request of {@code project} that a report
     * with the status {@link #IN_EFFECT} of the kind {@code reports} named. Reads merge orders newest first from
     * {@code notBelow} and stops at the first reported one (index reads, no sort).
     *
     * @return empty when no such merge request is reported (or none at or above {@code notBelow})
     */
    OptionalLong latestReportedMergeOrder(String project, long notBelow, Reports reports);

    /** Which in-effect reports raise a watermark. */
    enum Reports {
        /** Every report, with or without operation IDs (watermark matching). */
        ALL,
        /** Only reports that name no operation (exact matching with watermark fallback). */
        WITHOUT_OPERATION_IDS
    }
}
