package io.changeflow.application.fake;

import io.changeflow.application.port.out.AuditLog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link AuditLog} in memory: a duplicate key leaves the existing entry untouched. */
public final class FakeAuditLog implements AuditLog {

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    @Override
    public synchronized void record(Entry entry) {
        entries.putIfAbsent(entry.key(), entry);
    }

    @Override
    public synchronized List<Entry> about(String subject) {
        return entries.values().stream().filter(e -> e.subject().equals(subject)).toList();
    }

    public synchronized List<Entry> all() {
        return List.copyOf(entries.values());
    }
}
