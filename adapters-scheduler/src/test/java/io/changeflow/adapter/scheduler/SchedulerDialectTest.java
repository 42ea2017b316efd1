package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.jdbc.MariaDBJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQLJdbcCustomization;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scheduler's dialect comes from the server itself: MariaDB 10.6+ polls with lock-and-fetch
 * although mysql-connector-j reports MariaDB 10.x as MySQL 5.5.5. The database tests run on whichever
 * server the test JVM uses (embedded MariaDB 11.4, or {@code DB_URL}, e.g. the MariaDB 10.11 service).
 */
class SchedulerDialectTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();


    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            10.11.19-MariaDB-0+deb12u1 | MariaDB 10.11
            5.5.5-10.11.19-MariaDB     | MariaDB 10.11
            10.6.21-MariaDB            | MariaDB 10.6
            11.4.5-MariaDB             | MariaDB 11.4
            12.0.2-MariaDB-log         | MariaDB 12.0
            8.0.36-0ubuntu0.22.04.1    | MySQL 8.0
            8.4.3                      | MySQL 8.4
            9.1.0-commercial           | MySQL 9.1
            """)
    void supportedServersPollWithLockAndFetch(String version, String server) {
        var dialect = SchedulerDialect.ofMySqlFamily(version);

        assertThat(dialect.lockAndFetch()).isTrue();
        assertThat(dialect.server()).startsWith(server + " (");
        assertThat(dialect.customization()).isInstanceOf(MySQL8JdbcCustomization.class);
        assertThat(dialect.customization().supportsGenericLockAndFetch()).isTrue();
    }

    @Test
    void mariaDbIsNamedAsSuchInTheLogs() {
        assertThat(SchedulerDialect.ofMySqlFamily("10.11.19-MariaDB").customization().getName()).startsWith("MariaDB");
        assertThat(SchedulerDialect.ofMySqlFamily("8.4.3").customization().getName()).startsWith("MySQL");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            10.5.27-MariaDB          | MariaDB 10.5
            5.5.5-10.3.39-MariaDB    | MariaDB 10.3
            5.7.44-log               | MySQL 5.7
            """)
    void olderServersFallBackToFetchAndLockOnExecute(String version, String server) {
        var dialect = SchedulerDialect.ofMySqlFamily(version);

        assertThat(dialect.lockAndFetch()).isFalse();
        assertThat(dialect.server()).startsWith(server + " (");
        assertThat(dialect.customization())
                .isInstanceOf(version.contains("MariaDB") ? MariaDBJdbcCustomization.class : MySQLJdbcCustomization.class);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(value = {"''", "'  '", "garbled", "MariaDB", "v8"}, nullValues = "NULL")
    void anUnreadableVersionFallsBackToThePollingThatWorksEverywhere(String version) {
        var dialect = SchedulerDialect.ofMySqlFamily(version);

        assertThat(dialect.lockAndFetch()).isFalse();
        assertThat(dialect.server()).contains("unknown version");
        assertThat(SchedulerDialect.ofMySqlFamily(null).lockAndFetch()).isFalse();
    }

    @Test
    void detectsTheTestServerFromItsOwnVersionAndPollsItWithLockAndFetch() throws SQLException {
        String version;
        try (var connection = schema.db().dataSource().getConnection();
             var statement = connection.createStatement();
             var rows = statement.executeQuery("select version()")) {
            rows.next();
            version = rows.getString(1);
        }

        var dialect = SchedulerDialect.detect(schema.db().dataSource());

        assertThat(dialect.server()).endsWith("(" + version + ")");
        assertThat(dialect.lockAndFetch()).as("every server the tests run on is a supported one: %s", version).isTrue();
    }

    @Test
    void theLockAndFetchQueryRunsHereAndSkipsRowsAnotherPollerHolds() throws SQLException {
        var dialect = SchedulerDialect.detect(schema.db().dataSource());
        var now = Instant.now();
        insertRow(dialect, "one", now.minusSeconds(60));
        insertRow(dialect, "two", now.minusSeconds(60));
        var query = dialect.customization().createGenericSelectForUpdateQuery(SchedulerTable.NAME, 1, "", false);

        try (var first = schema.db().dataSource().getConnection(); var second = schema.db().dataSource().getConnection()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            try (var wait = second.createStatement()) {
                // a poller that waited for the first one's lock instead of skipping it fails fast
                wait.execute("set session innodb_lock_wait_timeout = 2");
            }
            var firstPick = due(first, query, dialect, now);
            var secondPick = due(second, query, dialect, now);
            first.rollback();
            second.rollback();

            assertThat(firstPick).hasSize(1);
            assertThat(secondPick).hasSize(1).doesNotContainAnyElementsOf(firstPick);
        }
    }

    @Test
    void instantsKeepTheirFractionOfASecondOnThisServer() throws SQLException {
        var dialect = SchedulerDialect.detect(schema.db().dataSource());
        var due = Instant.parse("2031-05-06T07:08:09.123456Z");
        insertRow(dialect, "fraction", due);
        try (var connection = schema.db().dataSource().getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select execution_time from " + SchedulerTable.NAME)) {
            rows.next();

            assertThat(dialect.customization().getInstant(rows, "execution_time")).isEqualTo(due);
        }
    }

    /** A row of task {@code probe}, not picked, due at {@code executionTime}. */
    private static void insertRow(SchedulerDialect dialect, String instance, Instant executionTime) throws SQLException {
        try (var connection = schema.db().dataSource().getConnection(); var insert = connection.prepareStatement(
                "insert into " + SchedulerTable.NAME + " (task_name, task_instance, execution_time, picked, version)"
                        + " values ('probe', ?, ?, false, 1)")) {
            insert.setString(1, instance);
            dialect.customization().setInstant(insert, 2, executionTime);
            insert.executeUpdate();
        }
    }

    private static List<String> due(Connection connection, String query, SchedulerDialect dialect, Instant now)
            throws SQLException {
        try (var select = connection.prepareStatement(query)) {
            select.setBoolean(1, false);
            dialect.customization().setInstant(select, 2, now);
            var instances = new ArrayList<String>();
            try (var rows = select.executeQuery()) {
                while (rows.next()) {
                    instances.add(rows.getString("task_instance"));
                }
            }
            return instances;
        }
    }
}
