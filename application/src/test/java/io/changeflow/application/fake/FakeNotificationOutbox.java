package io.changeflow.application.fake;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link NotificationOutbox} in memory: the status changes are read from {@link FakeOperations#allHistory()} (position =
 * index + 1, every change settled unless {@link #unsettledFrom} says otherwise), the messages kept by key.
 */
public final class FakeNotificationOutbox implements NotificationOutbox {

    private final FakeOperations operations;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private long unsettledFrom = Long.MAX_VALUE;

    private static final class Row {
        final long id;
        final Queued queued;
        int attempts;
        Instant dueAt;
        Instant sentAt;
        Instant queuedAt = Instant.EPOCH;
        String lastError;

        Row(long id, Queued queued) {
            this.id = id;
            this.queued = queued;
        }
    }

    public FakeNotificationOutbox(FakeOperations operations) {
        this.operations = operations;
    }

    /** Changes at or after {@code position} count as not yet settled (a transaction that may not have committed earlier ones). */
    public synchronized void unsettledFrom(long position) {
        this.unsettledFrom = position;
    }

    @Override
    public synchronized List<StatusChange> changesAfter(long position, Set<BindingStatus> statuses, Duration settle, int limit) {
        var all = operations.allHistory();
        var out = new ArrayList<StatusChange>();
        for (int i = (int) position; i < all.size() && out.size() < limit; i++) {
            var h = all.get(i);
            var opened = h.fromStep().isEmpty();
            var to = h.toBinding().orElse(null);
            if (to == null || (!opened && (h.fromBinding().equals(h.toBinding()) || !statuses.contains(to)))) {
                continue;
            }
            out.add(new StatusChange(i + 1, h.operationId(), to, opened, i + 1 < unsettledFrom));
        }
        return out;
    }

    @Override
    public synchronized long latestPosition() {
        return operations.allHistory().size();
    }

    @Override
    public synchronized int enqueue(List<Queued> messages) {
        int fresh = 0;
        for (var q : messages) {
            if (!rows.containsKey(q.key())) {
                var row = new Row(rows.size() + 1, q);
                row.dueAt = Instant.MIN;
                rows.put(q.key(), row);
                fresh++;
            }
        }
        return fresh;
    }

    @Override
    public synchronized List<Pending> due(Instant now, int maxAttempts, int limit) {
        return rows.values().stream().filter(r -> r.sentAt == null && !r.dueAt.isAfter(now) && r.attempts < maxAttempts)
                .limit(limit).map(FakeNotificationOutbox::pending).toList();
    }

    @Override
    public synchronized boolean sent(long id, Instant at) {
        var row = byId(id);
        if (row.sentAt != null) {
            return false;
        }
        row.sentAt = at;
        return true;
    }

    @Override
    public synchronized void failed(long id, Instant retryAt, String error) {
        var row = byId(id);
        row.attempts++;
        row.dueAt = retryAt;
        row.lastError = error;
    }

    @Override
    public synchronized List<Listed> list(Query query) {
        return new ArrayList<>(rows.values()).reversed().stream()
                .filter(r -> query.before().isEmpty() || r.id < query.before().getAsLong())
                .filter(r -> query.state().isEmpty()
                        || query.state().get() == State.of(r.sentAt != null, r.attempts, query.maxAttempts()))
                .limit(query.limit())
                .map(r -> new Listed(r.id, r.queued.key(), r.queued.message(), r.attempts,
                        r.dueAt == Instant.MIN ? r.queuedAt : r.dueAt, Optional.ofNullable(r.lastError),
                        Optional.ofNullable(r.sentAt), r.queuedAt))
                .toList();
    }

    @Override
    public synchronized Map<State, Long> countUnsent(int maxAttempts) {
        var counts = new EnumMap<State, Long>(State.class);
        rows.values().stream().filter(r -> r.sentAt == null)
                .forEach(r -> counts.merge(State.of(false, r.attempts, maxAttempts), 1L, Long::sum));
        return counts;
    }

    /** Every queued message, in the order queued. */
    public synchronized List<Queued> queued() {
        return rows.values().stream().map(r -> r.queued).toList();
    }

    private Row byId(long id) {
        return rows.values().stream().filter(r -> r.id == id).findFirst().orElseThrow();
    }

    private static Pending pending(Row r) {
        return new Pending(r.id, r.queued.key(), r.queued.message(), r.attempts);
    }
}
