package io.changeflow.application.workflow;

import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.EnumSet;
import java.util.Set;

/**
 * Finding S9 (issue 30): the requests whose merge request this service closes again when a person reopens it. A request
 * that ended unmerged (REJECTED, CLOSED, or replaced by a newer request: detached) with its own merge request closed and
 * nothing more owed (CLOSE_DONE, HANDLE_MR_CLOSED, CLOSED_BY_OPERATOR). Never a request under way, merged, a batch
 * member or a removal (whose merge request is a batch's), nor one whose close was given up (CLOSE_GAVE_UP is a person's).
 */
public final class ClosedAtRest {

    /** The steps at which an ended request's merge request was closed and nothing more is owed. */
    public static final Set<StepStatus> STEPS = Set.copyOf(EnumSet.of(StepStatus.CLOSE_DONE, StepStatus.HANDLE_MR_CLOSED,
            StepStatus.CLOSED_BY_OPERATOR));
    /** The bindings of a request that ended unmerged. */
    public static final Set<BindingStatus> ENDED = Set.copyOf(EnumSet.of(BindingStatus.REJECTED, BindingStatus.CLOSED));

    private ClosedAtRest() {
    }

    /** Whether a merge request of {@code op} found open is closed again through the close step. */
    public static boolean holds(Operation op) {
        return op.mergeRequest().isPresent() && op.batchId().isEmpty() && !op.kind().removes()
                && STEPS.contains(op.step()) && op.binding().map(ENDED::contains).orElse(true);
    }
}
