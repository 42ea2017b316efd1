package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.AUDIT_LOG;

import io.changeflow.application.port.out.AuditLog;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jooq.DSLContext;

/**
 * {@link AuditLog} on {@code audit_log}. Recording is idempotent by the entry key: a duplicate is
 * the unique key answering, and the stored entry is left as it is. Parameters are stored
 * form-encoded ({@code a=1&b=x%20y}, sorted by name).
 */
final class JooqAuditLog implements AuditLog {

    private final DSLContext dsl;

    JooqAuditLog(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public void record(Entry entry) {
        try {
            dsl.insertInto(AUDIT_LOG)
                    .set(AUDIT_LOG.ENTRY_KEY, entry.key())
                    .set(AUDIT_LOG.ACTOR, Sql.truncate(entry.actor(), Sql.ACTOR_MAX))
                    .set(AUDIT_LOG.ACTION, Sql.truncate(entry.action(), 64))
                    .set(AUDIT_LOG.SUBJECT, Sql.truncate(entry.subject(), 191))
                    .set(AUDIT_LOG.PARAMETERS, encode(entry.parameters()))
                    .set(AUDIT_LOG.OCCURRED_AT, Sql.utcValue(entry.at()))
                    .execute();
        } catch (RuntimeException e) {
            if (!Sql.isDuplicateKey(e)) {
                throw e;
            }
        }
    }

    @Override
    public List<Entry> about(String subject) {
        return dsl.selectFrom(AUDIT_LOG).where(AUDIT_LOG.SUBJECT.eq(subject)).orderBy(AUDIT_LOG.ID)
                .fetch(r -> new Entry(r.getEntryKey(), r.getActor(), r.getAction(), r.getSubject(),
                        decode(r.getParameters()), Sql.instant(r.getOccurredAt())));
    }

    static String encode(Map<String, String> parameters) {
        if (parameters == null || parameters.isEmpty()) {
            return "";
        }
        return new TreeMap<>(parameters).entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue() == null ? "" : e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    static Map<String, String> decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return Map.of();
        }
        var parameters = new LinkedHashMap<String, String>();
        for (var pair : encoded.split("&")) {
            var eq = pair.indexOf('=');
            parameters.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return Collections.unmodifiableMap(parameters);
    }
}
