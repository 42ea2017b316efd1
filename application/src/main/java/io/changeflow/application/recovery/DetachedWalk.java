package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.StepStatus;
import java.util.List;
import java.util.Set;

/**
 * A recurring walk over the detached requests at some steps ({@link Operations#detachedAt}), by operation ID across
 * runs, its position kept in {@link ScanCursors} under the walk's name; it starts again from the first after a short page.
 *
 * @param name the walk's name in {@link ScanCursors}
 */
record DetachedWalk(Operations operations, ScanCursors cursors, String name) {

    /** The next page of at most {@code limit} detached requests at one of {@code steps}. */
    List<Operation> next(Set<StepStatus> steps, int limit) {
        var after = cursors.position(name).flatMap(position -> OperationId.parse(position.token()));
        var page = operations.detachedAt(steps, new Operations.IdPage(after, limit));
        if (page.size() < limit) {
            cursors.forget(name);
        } else {
            cursors.remember(name, new ScanCursors.Position(page.getLast().id().value()));
        }
        return page;
    }
}
