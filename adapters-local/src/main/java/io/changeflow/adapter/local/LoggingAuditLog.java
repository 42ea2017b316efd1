package io.changeflow.adapter.local;

import io.changeflow.application.port.out.AuditLog;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link AuditLog} for an application without the persistence adapter (e.g. the web layer on its
 * own in its tests): entries go to the {@code changeflow.audit} logger, already masked and truncated, and
 * {@link #about} knows nothing. The application wires the persistent one.
 */
public final class LoggingAuditLog implements AuditLog {

    private static final Logger log = LoggerFactory.getLogger("changeflow.audit");

    @Override
    public void record(Entry entry) {
        log.info("audit key={} actor={} action={} subject={} parameters={} at={}", entry.key(), entry.actor(),
                entry.action(), entry.subject(), entry.parameters(), entry.at());
    }

    @Override
    public List<Entry> about(String subject) {
        return List.of();
    }
}
