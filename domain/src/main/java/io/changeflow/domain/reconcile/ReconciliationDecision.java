package io.changeflow.domain.reconcile;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Whether a merged record whose deploy callback has not arrived should be advanced to "in effect" ({@link #decide}):
 * exact evidence in every {@link Matching} mode, a watermark in merge order only where the mode allows it. The modes,
 * and why merge order and never merge request numbers: docs/workflow.md, "Reconciling merged requests".
 */
public final class ReconciliationDecision {

    /** The verdict for one record. */
    public enum Verdict {
        /** Advance to "in effect". */
        ADVANCE,
        /** Stay merged and look again in the next run. */
        WAIT
    }

    private ReconciliationDecision() {
    }

    /**
     * What reconciliation knows about one merged record.
     *
     * @param named                  an in-effect report named the record's operation ID
     * @param ownMergeRequestReported an in-effect report without operation IDs named the record's own merge request
     * @param mergeOrder             the record's merge order (recorded when it was written MERGED); empty if unknown
     * @param watermark              the latest merge order among merge requests of its project that reports
     *                               counting for the mode named in effect (empty: none, or not looked up)
     */
    public record Evidence(boolean named, boolean ownMergeRequestReported, OptionalLong mergeOrder, OptionalLong watermark) {
        public Evidence {
            Objects.requireNonNull(mergeOrder, "mergeOrder");
            Objects.requireNonNull(watermark, "watermark");
        }
    }

    /** The verdict for one record under {@code mode}. */
    public static Verdict decide(Matching mode, Evidence evidence) {
        if (evidence.named() || evidence.ownMergeRequestReported()) {
            return Verdict.ADVANCE;
        }
        if (!mode.infers() || evidence.mergeOrder().isEmpty()) {
            return Verdict.WAIT;
        }
        return byWatermark(evidence.mergeOrder().getAsLong(), evidence.watermark());
    }

    /** A record of merge order {@code mergeOrder} is in effect when a merge request merged at or after it was reported. */
    public static Verdict byWatermark(long mergeOrder, OptionalLong latestReportedMergeOrderOfProject) {
        return latestReportedMergeOrderOfProject.isPresent() && mergeOrder <= latestReportedMergeOrderOfProject.getAsLong()
                ? Verdict.ADVANCE
                : Verdict.WAIT;
    }

    public static Verdict byExactMatch(String operationId, Set<String> calledBackOperationIds) {
        return calledBackOperationIds.contains(operationId) ? Verdict.ADVANCE : Verdict.WAIT;
    }
}
