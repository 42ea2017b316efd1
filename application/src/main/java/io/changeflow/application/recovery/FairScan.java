package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One recurring fair scan over the requests ({@link Operations#scan}): each run reads the next page after the
 * position the previous run stopped at, kept in {@link ScanCursors} under the scan's name, and wraps around at
 * the end.
 *
 * @param name the scan's name in {@link ScanCursors}
 */
public record FairScan(Operations operations, ScanCursors cursors, String name) {

    /**
     * The next page of at most {@code limit} requests in {@code statuses} last written more than {@code olderThan}
     * ago. Its position is remembered before the page is processed: a request whose processing fails is looked at
     * again in a later run, and cannot hold the scan at its position.
     */
    public List<Operation> next(Set<BindingStatus> statuses, Duration olderThan, int limit) {
        var page = cursors.position(name)
                .map(after -> operations.scan(statuses, olderThan, after, limit))
                .orElseGet(() -> operations.scan(statuses, olderThan, limit));
        page.next().ifPresentOrElse(next -> cursors.remember(name, next), () -> cursors.forget(name));
        return page.operations();
    }
}
