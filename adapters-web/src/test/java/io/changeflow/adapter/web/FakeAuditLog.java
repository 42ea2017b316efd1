package io.changeflow.adapter.web;

import io.changeflow.application.port.out.AuditLog;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-memory audit log that can be told to fail. */
final class FakeAuditLog implements AuditLog {

    final List<Entry> entries = new CopyOnWriteArrayList<>();
    volatile RuntimeException failure;

    void reset() {
        entries.clear();
        failure = null;
    }

    @Override
    public void record(Entry entry) {
        if (failure != null) {
            throw failure;
        }
        entries.add(entry);
    }

    @Override
    public List<Entry> about(String subject) {
        return entries.stream().filter(e -> e.subject().equals(subject)).toList();
    }
}
