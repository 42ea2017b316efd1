package io.changeflow.application.port.out;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Append-only audit of operator actions. Entries hold only masked, length-truncated parameters.
 */
public interface AuditLog {

    /**
     * @param key        idempotency key of the entry: a duplicate is ignored and the existing entry stays untouched
     * @param parameters already masked and truncated
     */
    record Entry(String key, String actor, String action, String subject, Map<String, String> parameters, Instant at) {}

    void record(Entry entry);

    /** Entries about {@code subject} (e.g. an operationId or a batch id), oldest first. */
    List<Entry> about(String subject);
}
