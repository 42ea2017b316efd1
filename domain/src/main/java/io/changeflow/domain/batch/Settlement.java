package io.changeflow.domain.batch;

import io.changeflow.domain.mr.MergeRequestState;

/**
 * Settling a batch that failed (or is stuck): close the merge request first if it is still open,
 * then re-read it; merged wins. A merged MR can no longer be closed, so when "merge" and "close"
 * race, the merge is never lost.
 */
public final class Settlement {

    /** The decision after close-then-re-read. */
    public enum Outcome {
        /** The MR merged after all: members MERGED, batch SUCCEEDED. */
        MERGED_WINS,
        /** The MR is closed or absent: batch FAILED, members requeued, split or failed. */
        FAILED,
        /** The MR is still open or locked after the close attempt: settle again later. */
        RETRY_LATER
    }

    private Settlement() {
    }

    /** Whether the MR must be closed before re-reading. */
    public static boolean needsClose(MergeRequestState before) {
        return before == MergeRequestState.OPENED || before == MergeRequestState.LOCKED;
    }

    public static Outcome afterReread(MergeRequestState reread) {
        return switch (reread) {
            case MERGED -> Outcome.MERGED_WINS;
            case CLOSED, ABSENT -> Outcome.FAILED;
            case OPENED, LOCKED -> Outcome.RETRY_LATER;
        };
    }
}
