package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.util.List;
import java.util.Optional;

/** The caller's own requests, newest first, one page at a time. */
public final class ListMyRequests {

    public static final int MAX_PAGE_SIZE = 100;

    /**
     * @param page zero-based; {@code size} is capped at {@link #MAX_PAGE_SIZE}
     * @param status only requests whose binding is in this status, when given
     * @param target only requests on this target, when given
     */
    public record Command(String requester, int page, int size, Optional<BindingStatus> status,
                          Optional<TargetKey> target) {
        public Command(String requester, int page, int size) {
            this(requester, page, size, Optional.empty(), Optional.empty());
        }
    }

    /** One page of request views (without timelines). */
    public record Page(List<RequestView> items, int page, int size, boolean hasMore) {
        public Page {
            items = List.copyOf(items);
        }
    }

    private final Operations operations;

    public ListMyRequests(Operations operations) {
        this.operations = operations;
    }

    public Page list(Command command) {
        var page = Math.max(0, command.page());
        var size = Math.clamp(command.size(), 1, MAX_PAGE_SIZE);
        var filter = new Operations.RequestFilter(command.status(), command.target());
        var rows = operations.requestsOf(command.requester(), filter, page * size, size + 1);
        var items = rows.stream().limit(size).map(RequestView::summaryOf).toList();
        return new Page(items, page, size, rows.size() > size);
    }
}
