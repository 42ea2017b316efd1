package io.changeflow.domain.reconcile;

import java.util.OptionalLong;
import java.util.Set;

/**
 * Whether a merged record whose deploy callback has not arrived should be advanced to "in effect".
 *
 * <p>Watermark rule (callbacks without business identifiers): merge request numbers increase
 * monotonically within a project and the deploy pipeline runs in merge order without skipping, so
 * an MR at or below the largest called-back MR number of its project is in effect ({@code ==}: its
 * own callback arrived; {@code <}: a later one was deployed, so this one's callback was lost).
 * Exact rule (callbacks that listed operation IDs): advance exactly the listed ones.
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

    public static Verdict byWatermark(long mrIid, OptionalLong largestCalledBackIidOfProject) {
        return largestCalledBackIidOfProject.isPresent() && mrIid <= largestCalledBackIidOfProject.getAsLong()
                ? Verdict.ADVANCE
                : Verdict.WAIT;
    }

    public static Verdict byExactMatch(String operationId, Set<String> calledBackOperationIds) {
        return calledBackOperationIds.contains(operationId) ? Verdict.ADVANCE : Verdict.WAIT;
    }
}
