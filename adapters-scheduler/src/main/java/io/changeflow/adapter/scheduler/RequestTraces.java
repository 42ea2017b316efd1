package io.changeflow.adapter.scheduler;

import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trace each request (or batch) joins, in {@code step_trace}: the trace context of whatever first scheduled a
 * step for it from outside a step, normally its submission. A step scheduled later from outside a step (a callback,
 * a sweep, an operator's re-trigger, each with a trace of its own or none) is given that trace, so every step of a
 * request joins the submission's trace. The first trace written for a ref wins; rows older than
 * {@link #RETENTION} are deleted by the recurring job {@code purge-step-traces} ({@link #forgetOld}; a step of an
 * older request then starts a trace of its own). A failing read or write never keeps a step from being scheduled: it then carries the caller's trace.
 */
final class RequestTraces {

    static final String TABLE = "step_trace";
    static final Duration RETENTION = Duration.ofDays(30);

    private static final Logger log = LoggerFactory.getLogger(RequestTraces.class);
    private static final String READ = "select fields from " + TABLE + " where ref = ?";
    private static final String WRITE = "insert ignore into " + TABLE + " (ref, fields, created_at) values (?, ?, ?)";
    private static final String FORGET = "delete from " + TABLE + " where created_at < ? limit ?";
    private static final int MAX_FIELDS_LENGTH = 1000;

    private final DataSource dataSource;
    private final Clock clock;

    RequestTraces(DataSource dataSource, Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The trace for a step of {@code ref} scheduled with {@code current} (the caller's trace, row fields) in
     * scope: the one kept for {@code ref}, else {@code current}, which is then kept.
     */
    Map<String, String> traceFor(String ref, Map<String, String> current) {
        return traced(ref, current, true);
    }

    /**
     * {@link #traceFor} for a ref that is new (a request just opened): it is kept first, and read only when
     * another caller kept one before (one statement instead of a read and a write).
     */
    Map<String, String> traceForNew(String ref, Map<String, String> current) {
        return traced(ref, current, false);
    }

    private Map<String, String> traced(String ref, Map<String, String> current, boolean readFirst) {
        try {
            var kept = readFirst || current.isEmpty() ? read(ref) : Optional.<Map<String, String>>empty();
            if (kept.isPresent() || current.isEmpty()) {
                return kept.orElse(current);
            }
            var encoded = encode(current);
            if (encoded.length() > MAX_FIELDS_LENGTH) {
                return readFirst ? current : read(ref).orElse(current);
            }
            if (write(ref, encoded) == 0) {
                return read(ref).orElse(current); // another caller kept its trace first
            }
            return current;
        } catch (SQLException e) {
            log.warn("cannot read or keep the trace of {} ({}); its step carries the caller's trace", ref, e.toString());
            return current;
        }
    }

    private Optional<Map<String, String>> read(String ref) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(READ)) {
            statement.setString(1, ref);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(decode(rows.getString(1))) : Optional.empty();
            }
        }
    }

    private int write(String ref, String fields) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(WRITE)) {
            statement.setString(1, ref);
            statement.setString(2, fields);
            statement.setTimestamp(3, Timestamp.from(clock.instant()));
            return statement.executeUpdate();
        }
    }

    /** Deletes at most {@code limit} traces kept longer than {@link #RETENTION}; how many it deleted. */
    int forgetOld(int limit) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(FORGET)) {
            statement.setTimestamp(1, Timestamp.from(clock.instant().minus(RETENTION)));
            statement.setInt(2, limit);
            return statement.executeUpdate();
        }
    }

    /** One {@code field=value} line per field (field names have no {@code =}, values no line break). */
    static String encode(Map<String, String> fields) {
        var text = new StringBuilder();
        fields.forEach((field, value) -> text.append(field).append('=').append(value.replace('\n', ' ')).append('\n'));
        return text.toString();
    }

    static Map<String, String> decode(String text) {
        var fields = new LinkedHashMap<String, String>();
        text.lines().forEach(line -> {
            var equals = line.indexOf('=');
            if (equals > 0) {
                fields.put(line.substring(0, equals), line.substring(equals + 1));
            }
        });
        return fields;
    }
}
