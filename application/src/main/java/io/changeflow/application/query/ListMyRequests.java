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

    /** A page and its version ({@link #version}), read together. */
    public record Listed(Page page, String version) {}

    public Page list(Command command) {
        return read(command).page();
    }

    /** {@link #list} with the page's version, as {@link #version} reads it without reading the rows. */
    public Listed read(Command command) {
        var page = Math.max(0, command.page());
        var size = Math.clamp(command.size(), 1, MAX_PAGE_SIZE);
        var rows = operations.requestsOf(command.requester(), filter(command), page * size, size + 1);
        var items = rows.stream().limit(size).map(RequestView::summaryOf).toList();
        var version = versionOf(page, size, rows.stream().map(Operations.RowVersion::of).toList());
        return new Listed(new Page(items, page, size, rows.size() > size), version);
    }

    /**
     * The version of the page {@link #list} would answer (issue 33: the conditional read of my records), from one
     * narrow read of the same rows ({@link Operations#requestVersionsOf}): it changes when a row comes, goes, moves
     * or changes anything the list shows, and is the same on every instance for the same stored rows.
     */
    public String version(Command command) {
        var page = Math.max(0, command.page());
        var size = Math.clamp(command.size(), 1, MAX_PAGE_SIZE);
        return versionOf(page, size, operations.requestVersionsOf(command.requester(), filter(command), page * size,
                size + 1));
    }

    private static Operations.RequestFilter filter(Command command) {
        return new Operations.RequestFilter(command.status(), command.target());
    }

    private static String versionOf(int page, int size, List<Operations.RowVersion> rows) {
        var shown = new StringBuilder().append(page).append('/').append(size);
        var newest = 0L;
        for (var row : rows) {
            shown.append('|').append(row.id().value()).append(':').append(row.version()).append(':')
                    .append(row.binding().map(Enum::name).orElse("-")).append(':')
                    .append(row.mergeRequestIid().map(String::valueOf).orElse("-"));
            newest = Math.max(newest, row.updatedAt().toEpochMilli());
        }
        return "L" + ViewVersion.FORMAT + "-" + Long.toString(newest, 36) + "-" + rows.size() + "-"
                + ViewVersion.digest(shown);
    }
}
