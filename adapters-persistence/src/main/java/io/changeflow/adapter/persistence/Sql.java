package io.changeflow.adapter.persistence;

import io.changeflow.domain.PreemptedException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/** Shared SQL conventions of the adapter: row counts, the database clock, chunked IN lists, duplicate keys. */
final class Sql {

    /** No statement carries more than this many IN-list items (or inserted rows). */
    static final int CHUNK = 1000;
    /** The length of the {@code detail} columns (operations, batches, both histories): longer text is stored cut. */
    static final int DETAIL_MAX = 1000;
    /** The length of the {@code actor} columns of the histories and the audit log. */
    static final int ACTOR_MAX = 128;

    private static final DateTimeFormatter DATETIME_3 = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");
    private static final int ER_DUP_ENTRY = 1062;
    private static final int ER_DUP_ENTRY_WITH_KEY_NAME = 1586;
    private static final int ER_LOCK_DEADLOCK = 1213;

    private Sql() {
    }

    /** 0 rows: someone else changed the row first; 1: ok; more: the guard is broken. */
    static void requireOneRow(int rows, String what) {
        requireRows(rows, 1, what);
    }

    static void requireRows(int rows, int expected, String what) {
        if (rows == expected) {
            return;
        }
        if (rows < expected) {
            throw new PreemptedException(what + ": expected " + expected + " row(s) in the state read, found " + rows);
        }
        throw new IllegalStateException(what + ": a guarded write touched " + rows + " rows, expected " + expected);
    }

    /** The database clock, millisecond precision. */
    static Field<LocalDateTime> now() {
        return DSL.field("CURRENT_TIMESTAMP(3)", SQLDataType.LOCALDATETIME(3));
    }

    /** The database clock minus {@code age}. */
    static Field<LocalDateTime> ago(Duration age) {
        return DSL.field("(CURRENT_TIMESTAMP(3) - INTERVAL {0} MICROSECOND)", SQLDataType.LOCALDATETIME(3),
                DSL.inline(micros(age)));
    }

    /** The database clock plus {@code later}. */
    static Field<LocalDateTime> ahead(Duration later) {
        return DSL.field("(CURRENT_TIMESTAMP(3) + INTERVAL {0} MICROSECOND)", SQLDataType.LOCALDATETIME(3),
                DSL.inline(micros(later)));
    }

    private static long micros(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a duration here is never negative: " + duration);
        }
        return duration.toNanos() / 1_000;
    }

    /** Instants are stored as UTC DATETIME(3) (sessions run with time_zone +00:00). */
    static LocalDateTime utc(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * An instant as a DATETIME(3) value. Bound as text and cast by the server: mysql-connector-j
     * drops the milliseconds of a bound LocalDateTime when a MariaDB 10.x server announces itself
     * as "5.5.5-10.x" (no fractional seconds before MySQL 5.6.4).
     */
    static Field<LocalDateTime> utcValue(Instant instant) {
        if (instant == null) {
            return DSL.val((LocalDateTime) null, SQLDataType.LOCALDATETIME(3));
        }
        return DSL.field("CAST({0} AS DATETIME(3))", SQLDataType.LOCALDATETIME(3), DSL.val(DATETIME_3.format(utc(instant))));
    }

    static Instant instant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }

    static <T> List<List<T>> chunks(List<T> items) {
        var chunks = new ArrayList<List<T>>((items.size() + CHUNK - 1) / CHUNK);
        for (int from = 0; from < items.size(); from += CHUNK) {
            chunks.add(items.subList(from, Math.min(items.size(), from + CHUNK)));
        }
        return chunks;
    }

    /**
     * Whether {@code failure} is a unique-key conflict, whichever layer wrapped it (jOOQ, or Spring's
     * translation when the DSLContext comes from Spring Boot).
     */
    static boolean isDuplicateKey(Throwable failure) {
        return duplicateKeyCause(failure) != null;
    }

    /** Runs {@code insert}: true when it inserted, false when a unique key already held the row (the answer). */
    static boolean insertedUnlessDuplicate(Query insert) {
        try {
            insert.execute();
            return true;
        } catch (RuntimeException e) {
            if (isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Whether {@code failure} is a unique-key conflict on the index named {@code key}. */
    static boolean isDuplicateKey(Throwable failure, String key) {
        var cause = duplicateKeyCause(failure);
        return cause != null && cause.getMessage() != null
                && cause.getMessage().toLowerCase(Locale.ROOT).contains(key.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code failure} made InnoDB pick this transaction as a deadlock victim (rolled back whole). */
    /**
     * Runs {@code transaction} again, at most {@code retries} times, when the database picked it as a deadlock
     * victim: InnoDB rolled it back whole, so running it again decides afresh.
     */
    static <T> T retryingDeadlocks(int retries, Supplier<T> transaction) {
        for (var attempt = 0; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (!isDeadlock(e) || attempt >= retries) {
                    throw e;
                }
            }
        }
    }

    static boolean isDeadlock(Throwable failure) {
        for (var t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == ER_LOCK_DEADLOCK) {
                return true;
            }
        }
        return false;
    }

    private static SQLException duplicateKeyCause(Throwable failure) {
        for (var t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql
                    && (sql.getErrorCode() == ER_DUP_ENTRY || sql.getErrorCode() == ER_DUP_ENTRY_WITH_KEY_NAME)) {
                return sql;
            }
        }
        return null;
    }

    static String truncate(String text, int max) {
        if (text == null) {
            return "";
        }
        return text.length() <= max ? text : text.substring(0, max);
    }
}
