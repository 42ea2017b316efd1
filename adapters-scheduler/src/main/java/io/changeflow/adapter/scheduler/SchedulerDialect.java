package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MariaDBJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQLJdbcCustomization;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * How db-scheduler talks to the server behind the DataSource: its SQL customization and its polling
 * strategy, chosen from what the server says it is ({@code SELECT VERSION()}), not from the version
 * the driver reports. mysql-connector-j reports MariaDB 10.x as MySQL {@code 5.5.5-10.11.19-MariaDB}
 * (major version 5), for which db-scheduler's own detection picks its "MySQL &lt; v8" customization,
 * which cannot poll with lock-and-fetch; its MariaDB customization (chosen with mariadb-java-client)
 * cannot either.
 *
 * <ul>
 *   <li>MySQL 8+ and MariaDB 10.6+ know {@code SELECT ... ORDER BY ... LIMIT n FOR UPDATE SKIP LOCKED}:
 *       db-scheduler's MySQL 8 customization, polling with lock-and-fetch (a due row goes to one
 *       instance, the others skip it without waiting);</li>
 *   <li>older MySQL or MariaDB servers (not supported, see docs/configuration.md) and a version that
 *       cannot be read: the matching older customization, polling with fetch-and-lock-on-execute,
 *       which works on every server (a row is claimed by a guarded update; concurrent pickers lose
 *       the race and move on);</li>
 *   <li>any other product: db-scheduler's own detection, lock-and-fetch only where it offers it.</li>
 * </ul>
 * Timestamps are always written in UTC (db-scheduler requires it for MySQL and MariaDB, whose
 * {@code TIMESTAMP} columns carry no zone).
 *
 * @param server        the server as detected, e.g. {@code MariaDB 10.11 (10.11.19-MariaDB-0+deb12u1)}, for logs
 * @param customization the SQL customization db-scheduler is built with
 * @param lockAndFetch  poll with {@code FOR UPDATE SKIP LOCKED}; false: fetch-and-lock-on-execute
 */
record SchedulerDialect(String server, JdbcCustomization customization, boolean lockAndFetch) {

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");
    /** The prefix MariaDB 10.x puts before its version in the handshake (some clients show it). */
    private static final String MARIADB_HANDSHAKE_PREFIX = "5.5.5-";

    SchedulerDialect {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(customization, "customization");
    }

    /** Asks the server behind {@code dataSource} (one connection). */
    static SchedulerDialect detect(DataSource dataSource) {
        try (var connection = dataSource.getConnection()) {
            var product = connection.getMetaData().getDatabaseProductName();
            if (!isMySqlFamily(product)) {
                return other(product, new AutodetectJdbcCustomization(dataSource, true));
            }
            try (var statement = connection.createStatement(); var rows = statement.executeQuery("select version()")) {
                return ofMySqlFamily(rows.next() ? rows.getString(1) : null);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot tell which database server the scheduler runs on", e);
        }
    }

    /**
     * The dialect for a MySQL or MariaDB server whose {@code VERSION()} is {@code version}
     * (e.g. {@code 8.4.3}, {@code 10.11.19-MariaDB-0+deb12u1}, {@code 11.4.5-MariaDB}); null or
     * unreadable: fetch-and-lock-on-execute, which works everywhere.
     */
    static SchedulerDialect ofMySqlFamily(String version) {
        var text = version == null ? "" : version.strip();
        var mariaDb = text.toLowerCase(Locale.ROOT).contains("mariadb");
        if (mariaDb && text.startsWith(MARIADB_HANDSHAKE_PREFIX)) {
            text = text.substring(MARIADB_HANDSHAKE_PREFIX.length());
        }
        var product = mariaDb ? "MariaDB" : "MySQL";
        var matcher = VERSION.matcher(text);
        if (!matcher.find()) {
            return new SchedulerDialect(product + " of unknown version (" + version + ")", older(mariaDb), false);
        }
        var major = Integer.parseInt(matcher.group(1));
        var minor = Integer.parseInt(matcher.group(2));
        var server = product + " " + major + "." + minor + " (" + version.strip() + ")";
        var skipLocked = mariaDb ? major > 10 || major == 10 && minor >= 6 : major >= 8;
        return skipLocked
                ? new SchedulerDialect(server, mariaDb ? new MariaDbSkipLocked() : new MySQL8JdbcCustomization(true), true)
                : new SchedulerDialect(server, older(mariaDb), false);
    }

    private static SchedulerDialect other(String product, JdbcCustomization customization) {
        var lockAndFetch = customization.supportsGenericLockAndFetch() || customization.supportsSingleStatementLockAndFetch();
        return new SchedulerDialect(product, customization, lockAndFetch);
    }

    private static boolean isMySqlFamily(String product) {
        var name = product == null ? "" : product.toLowerCase(Locale.ROOT);
        return name.contains("mysql") || name.contains("mariadb");
    }

    private static JdbcCustomization older(boolean mariaDb) {
        return mariaDb ? new MariaDBJdbcCustomization(true) : new MySQLJdbcCustomization(true);
    }

    /** The polling strategy, for logs and the health details (in words: no SQL in an answer). */
    String polling() {
        return lockAndFetch ? "lock-and-fetch (rows another instance holds are skipped)" : "fetch-and-lock-on-execute";
    }

    /**
     * MySQL 8's statements, which MariaDB 10.6+ runs as they are, with instants bound as UTC text:
     * mysql-connector-j drops the fraction of a bound {@code Timestamp} when MariaDB 10.x announces
     * itself as {@code 5.5.5-10.x} (it takes the server for a MySQL older than 5.6.4), which would put
     * heartbeats up to a second in the past and cut retry delays to whole seconds. The server reads
     * the text in the session's time zone, UTC (the persistence adapter requires UTC sessions).
     */
    private static final class MariaDbSkipLocked extends MySQL8JdbcCustomization {

        private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

        MariaDbSkipLocked() {
            super(true);
        }

        @Override
        public String getName() {
            return "MariaDB >= 10.6 (MySQL 8 statements, SKIP LOCKED)";
        }

        @Override
        public void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
            if (value == null) {
                statement.setNull(index, Types.TIMESTAMP);
            } else {
                statement.setString(index, MICROS.format(value.atOffset(ZoneOffset.UTC)));
            }
        }
    }
}
