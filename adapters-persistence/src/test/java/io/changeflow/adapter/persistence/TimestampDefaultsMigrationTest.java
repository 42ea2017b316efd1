package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.changeflow.testsupport.TestDatabase;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No time column of the schema updates itself, whatever the server's
 * {@code explicit_defaults_for_timestamp} (OFF by default on MariaDB up to 10.9): with it OFF, V4
 * alone gives {@code scheduled_tasks.execution_time} an {@code ON UPDATE CURRENT_TIMESTAMP}, so every
 * update of a task row would reset its due time; V6 declares the columns so that cannot happen. Each
 * test migrates a fresh schema on the test server with the setting in every Flyway session.
 */
class TimestampDefaultsMigrationTest {

    /** As text both ways: mysql-connector-j drops the fraction of a bound LocalDateTime on MariaDB 10.x. */
    private static final String DUE = "2031-05-06 07:08:09.123456";

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void dropSchemas() throws Exception {
        for (var resource : opened.reversed()) {
            resource.close();
        }
    }

    @ParameterizedTest(name = "explicit_defaults_for_timestamp {0}")
    @ValueSource(strings = {"OFF", "ON"})
    void noColumnOfTheMigratedSchemaUpdatesItself(String explicitDefaults) throws SQLException {
        var dataSource = freshSchema(explicitDefaults);

        migrate(dataSource, null);

        assertThat(selfUpdatingColumns(dataSource)).isEmpty();
        assertThat(createTable(dataSource)).doesNotContainIgnoringCase("on update");
        insertDueRow(dataSource);
        touchTheRowAsTheSchedulerDoes(dataSource);
        assertThat(executionTime(dataSource)).isEqualTo(DUE);
    }

    @Test
    void anInstallWhoseDueTimesUpdatedThemselvesIsRepairedAndKeepsItsDueTimes() throws SQLException {
        var dataSource = freshSchema("OFF");
        migrate(dataSource, "5");
        assertThat(createTable(dataSource)).as("the trap, reproduced before V6").containsIgnoringCase("on update");
        insertDueRow(dataSource);

        migrate(dataSource, null);

        assertThat(selfUpdatingColumns(dataSource)).isEmpty();
        assertThat(executionTime(dataSource)).isEqualTo(DUE);
        touchTheRowAsTheSchedulerDoes(dataSource);
        assertThat(executionTime(dataSource)).isEqualTo(DUE);
    }

    private HikariDataSource freshSchema(String explicitDefaults) {
        var db = TestDatabase.freshSchema().open(getClass().getSimpleName() + "_" + explicitDefaults);
        opened.add(db);
        var config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(2);
        config.setConnectionInitSql("set session explicit_defaults_for_timestamp = " + explicitDefaults);
        var dataSource = new HikariDataSource(config);
        opened.add(dataSource);
        return dataSource;
    }

    private static void migrate(HikariDataSource dataSource, String target) {
        var flyway = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration");
        if (target != null) {
            flyway.target(target);
        }
        flyway.load().migrate();
    }

    /** Every column of the schema with an {@code ON UPDATE} clause, as {@code table.column}. */
    private static List<String> selfUpdatingColumns(HikariDataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection(); var select = connection.prepareStatement(
                "select table_name, column_name from information_schema.columns"
                        + " where table_schema = database() and lower(extra) like '%on update%'")) {
            var columns = new ArrayList<String>();
            try (var rows = select.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1) + "." + rows.getString(2));
                }
            }
            return columns;
        }
    }

    private static String createTable(HikariDataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("show create table scheduled_tasks")) {
            rows.next();
            return rows.getString(2).toLowerCase(Locale.ROOT);
        }
    }

    private static void insertDueRow(HikariDataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection(); var insert = connection.prepareStatement(
                "insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version)"
                        + " values ('probe', '1', cast(? as datetime(6)), false, 1)")) {
            insert.setString(1, DUE);
            insert.executeUpdate();
        }
    }

    /** A pick and a heartbeat: updates that leave {@code execution_time} out. */
    private static void touchTheRowAsTheSchedulerDoes(HikariDataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
            statement.executeUpdate("update scheduled_tasks set picked = true, picked_by = 'probe', version = version + 1");
            statement.executeUpdate("update scheduled_tasks set last_heartbeat = current_timestamp(6)");
        }
    }

    private static String executionTime(HikariDataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select cast(execution_time as char) from scheduled_tasks")) {
            rows.next();
            return rows.getString(1);
        }
    }
}
