package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changeflow.testsupport.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.mock.env.MockEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every JDBC statement leaves with a deadline: the query timeout of the wrapped DataSource, kept by MariaDB's
 * {@code max_statement_time} (the test database is MariaDB unless {@code DB_URL} names another server) or by the
 * driver's timer elsewhere.
 */
class QueryTimeoutTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();


    @Test
    void everyStatementGetsTheDefaultQueryTimeoutOfTenSeconds() throws Exception {
        try (var persistence = Persistence.on(db, 4);
             var connection = persistence.dataSource().getConnection();
             var plain = connection.createStatement();
             var prepared = connection.prepareStatement("select 1");
             var call = connection.prepareCall("select 1")) {
            assertThat(persistence.dataSource()).isInstanceOf(QueryTimeoutDataSource.class);
            assertThat(plain.getQueryTimeout()).isEqualTo(10);
            assertThat(prepared.getQueryTimeout()).isEqualTo(10);
            assertThat(call.getQueryTimeout()).isEqualTo(10);
            int viaJooq = persistence.dsl().connectionResult(c -> {
                try (var statement = c.prepareStatement("select 1")) {
                    return statement.getQueryTimeout();
                }
            });
            assertThat(viaJooq).as("jOOQ's statements (through Spring's transaction-aware proxy)").isEqualTo(10);
        }
    }

    @Test
    void aStatementPastItsTimeoutIsCancelledAndTheConnectionStaysUsable() {
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.query-timeout=1s")) {
            assertThatThrownBy(() -> persistence.dsl().fetch("select sleep(5)"))
                    .isInstanceOf(QueryTimeoutException.class)
                    .hasRootCauseInstanceOf(SQLTimeoutException.class);
            for (int i = 0; i < 3; i++) {
                assertThat(persistence.dsl().fetchValue("select 1")).isEqualTo(1);
            }
        }
    }

    @Test
    void onMariaDbTheSessionCarriesTheLimitAndNoStatementArmsTheDriversTimer() throws Exception {
        assumeTrue(serverLimitsStatements(), "the test database is not MariaDB");
        try (var persistence = Persistence.on(db, 1);
             var connection = persistence.dataSource().getConnection();
             var prepared = connection.prepareStatement("select @@session.max_statement_time");
             var result = prepared.executeQuery()) {
            assertThat(result.next()).isTrue();
            assertThat(result.getBigDecimal(1)).isEqualByComparingTo(BigDecimal.TEN);
            assertThat(prepared.getQueryTimeout()).as("the answer a caller reads").isEqualTo(10);
            assertThat(prepared.unwrap(PreparedStatement.class).getQueryTimeout()).as("the driver's own statement: no timer")
                    .isZero();
        }
    }

    @Test
    void aStatementCutByTheServerIsATimeoutAndTheSessionKeepsItsLimit() throws Exception {
        try (var persistence = Persistence.on(db, 1, "changeflow.persistence.query-timeout=1s")) {
            assertThatThrownBy(() -> persistence.dsl().fetch("select sleep(2)"))
                    .isInstanceOf(QueryTimeoutException.class)
                    .hasRootCauseInstanceOf(SQLTimeoutException.class);
            if (serverLimitsStatements()) {
                assertThat(sessionLimit(persistence))
                        .isEqualByComparingTo(BigDecimal.ONE);
            }
        }
    }

    @Test
    void aRowLockWaitLongerThanTheTimeoutIsCutAtTheTimeout() throws Exception {
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.query-timeout=1s");
             var holder = db.dataSource().getConnection()) {
            lockProbe(holder);
            assertThat(persistence.dsl().fetchSingle("select @@innodb_lock_wait_timeout").get(0, Integer.class))
                    .as("the lock wait would last longer than the timeout").isGreaterThan(1);
            holder.setAutoCommit(false);
            try (var statement = holder.createStatement()) {
                statement.executeQuery("select v from lock_probe where id = 1 for update").close();
                assertThatThrownBy(() -> persistence.dsl().execute("update lock_probe set v = v + 1 where id = 1"))
                        .as("cut at the timeout, not at innodb_lock_wait_timeout (1205, a lock failure)")
                        .isInstanceOf(QueryTimeoutException.class)
                        .hasRootCauseInstanceOf(SQLTimeoutException.class);
            } finally {
                holder.rollback();
                holder.setAutoCommit(true);
            }
        }
    }

    @Test
    void aTableLockWaitIsCutAtTheTimeout() throws Exception {
        var releaser = Executors.newSingleThreadScheduledExecutor();
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.query-timeout=1s");
             var holder = db.dataSource().getConnection()) {
            lockProbe(holder);
            try (var statement = holder.createStatement()) {
                statement.execute("LOCK TABLES lock_probe WRITE");
            }
            // the wait must not outlast the lock: were it not cut, the read would succeed once the lock is released
            var released = releaser.schedule(() -> unlock(holder), 30, TimeUnit.SECONDS);
            try {
                assertThatThrownBy(() -> persistence.dsl().fetch("select v from lock_probe"))
                        .isInstanceOf(QueryTimeoutException.class)
                        .hasRootCauseInstanceOf(SQLTimeoutException.class);
            } finally {
                released.cancel(false);
                unlock(holder);
            }
            assertThat(persistence.dsl().fetchSingle("select v from lock_probe where id = 1").get(0, Integer.class)).isNotNull();
        } finally {
            releaser.shutdownNow();
        }
    }

    @Test
    void migrationsRunWithoutTheLimitAndTheApplicationsNextUseOfTheConnectionHasItAgain() throws Exception {
        try (var persistence = Persistence.on(db, 1, "changeflow.persistence.query-timeout=1s")) {
            DataSource migrations = persistence.flyway().getConfiguration().getDataSource();
            assertThat(migrations).isNotInstanceOf(QueryTimeoutDataSource.class);
            try (var connection = migrations.getConnection(); var statement = connection.createStatement()) {
                assertThat(statement.getQueryTimeout()).isZero();
                try (var result = statement.executeQuery("select sleep(2), @@session.max_statement_time")) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getInt(1)).as("a statement longer than the limit runs to its end").isZero();
                    assertThat(result.getBigDecimal(2)).isEqualByComparingTo(BigDecimal.ZERO);
                }
            }
            if (serverLimitsStatements()) {
                assertThat(sessionLimit(persistence))
                        .as("the pool's one connection, handed to the application again").isEqualByComparingTo(BigDecimal.ONE);
            }
        }
    }

    @Test
    void onAServerThatDoesNotLimitStatementsItselfEveryStatementCarriesTheDriversTimer() throws Exception {
        var timed = new QueryTimeoutDataSource(reportingMySql(db.dataSource()), Duration.ofSeconds(1));
        try (var connection = timed.getConnection(); var prepared = connection.prepareStatement("select sleep(3)")) {
            assertThat(prepared.unwrap(PreparedStatement.class).getQueryTimeout()).isEqualTo(1);
            assertThatThrownBy(prepared::executeQuery).isInstanceOf(SQLTimeoutException.class);
            try (var statement = connection.createStatement();
                 var result = statement.executeQuery("select @@session.max_statement_time")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getBigDecimal(1)).as("the session left as it was").isEqualByComparingTo(BigDecimal.ZERO);
            }
        }
    }

    @Test
    void theServerIsTakenForMariaDbByItsProductNameOrVersionOnly() {
        assertThat(QueryTimeoutDataSource.limitsStatementsItself("MySQL", "11.4.5-MariaDB")).as("MySQL Connector/J").isTrue();
        assertThat(QueryTimeoutDataSource.limitsStatementsItself("MariaDB", "11.4.5")).as("MariaDB's driver").isTrue();
        assertThat(QueryTimeoutDataSource.limitsStatementsItself("MySQL", "10.11.9-MariaDB-log")).isTrue();
        assertThat(QueryTimeoutDataSource.limitsStatementsItself("MySQL", "8.4.3")).isFalse();
        assertThat(QueryTimeoutDataSource.limitsStatementsItself("MySQL", null)).isFalse();
        assertThat(QueryTimeoutDataSource.limitsStatementsItself(null, null)).isFalse();
    }

    @Test
    void theDriversNullPointerOnAClosedConnectionIsALostConnectionNotAnInternalError() throws Exception {
        var closedUnder = new NullPointerException("Cannot invoke \"com.mysql.cj.NativeSession.getProtocol()\" because \"this.session\" is null");
        var statement = (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Statement.class},
                (proxy, method, args) -> {
                    throw closedUnder;
                });
        var execute = Statement.class.getMethod("executeQuery", String.class);

        assertThatThrownBy(() -> QueryTimeoutDataSource.invoke(statement, execute, new Object[] {"select 1"}))
                .isInstanceOf(java.sql.SQLNonTransientConnectionException.class)
                .hasCause(closedUnder)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"))
                .satisfies(e -> assertThat(io.changeflow.application.port.out.DatabaseUnavailable.reason(e))
                        .contains(io.changeflow.application.port.out.DatabaseUnavailable.Reason.CONNECTION_LOST));
        var other = new IllegalStateException("not the driver's null");
        var odd = (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Statement.class},
                (proxy, method, args) -> {
                    throw other;
                });
        assertThatThrownBy(() -> QueryTimeoutDataSource.invoke(odd, execute, new Object[] {"select 1"})).isSameAs(other);
        assertThat(QueryTimeoutDataSource.driverFailure(new Object(), closedUnder)).as("not a JDBC object").isSameAs(closedUnder);
    }

    @Test
    void onlyTheServersStatementTimeoutBecomesATimeout() {
        var cut = new SQLException("Query execution was interrupted (max_statement_time exceeded)", "70100", 1969);
        assertThat((Throwable) QueryTimeoutDataSource.asTimeout(cut)).isInstanceOf(SQLTimeoutException.class)
                .hasMessage(cut.getMessage()).hasNoCause();
        assertThat(QueryTimeoutDataSource.asTimeout(cut).getSuppressed()).containsExactly(cut);
        var inBatch = new BatchUpdateException("batch failed", "70100", 1969, new int[0], cut);
        assertThat((Throwable) QueryTimeoutDataSource.asTimeout(inBatch)).isInstanceOf(SQLTimeoutException.class);
        var killed = new SQLException("Query execution was interrupted", "70100", 1317);
        assertThat((Throwable) QueryTimeoutDataSource.asTimeout(killed)).as("KILL QUERY by a person is not a deadline").isSameAs(killed);
        var lockWait = new SQLException("Lock wait timeout exceeded", "HY000", 1205);
        assertThat((Throwable) QueryTimeoutDataSource.asTimeout(lockWait)).isSameAs(lockWait);
    }

    @Test
    void aMissingGarbledZeroOrNegativeTimeoutIsTheDefaultNeverNoTimeout() {
        assertThat(PersistenceConfiguration.queryTimeout(new MockEnvironment())).isEqualTo(Duration.ofSeconds(10));
        for (var configured : new String[] {"0s", "-5s", "soon", " ", "0"}) {
            var environment = new MockEnvironment().withProperty("changeflow.persistence.query-timeout", configured);
            assertThat(PersistenceConfiguration.queryTimeout(environment)).as(configured).isEqualTo(Duration.ofSeconds(10));
        }
        assertThat(PersistenceConfiguration.queryTimeout(
                new MockEnvironment().withProperty("changeflow.persistence.query-timeout", "3s"))).isEqualTo(Duration.ofSeconds(3));
        assertThat(QueryTimeoutDataSource.seconds(Duration.ofMillis(1500))).as("rounded up to whole seconds").isEqualTo(2);
        assertThat(QueryTimeoutDataSource.seconds(Duration.ofMillis(1))).isEqualTo(1);
    }

    /** A table of one row beside the migrated ones (created after the migrations ran). */
    private static void lockProbe(Connection connection) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute("create table if not exists lock_probe (id int primary key, v int not null)");
            statement.execute("insert ignore into lock_probe values (1, 0)");
        }
    }

    private static BigDecimal sessionLimit(Persistence persistence) {
        return persistence.dsl().fetchSingle("select @@session.max_statement_time").get(0, BigDecimal.class);
    }

    private static boolean serverLimitsStatements() throws SQLException {
        try (var connection = db.dataSource().getConnection()) {
            var metaData = connection.getMetaData();
            return QueryTimeoutDataSource.limitsStatementsItself(metaData.getDatabaseProductName(),
                    metaData.getDatabaseProductVersion());
        }
    }

    private static Void unlock(Connection holder) throws SQLException {
        try (var statement = holder.createStatement()) {
            statement.execute("UNLOCK TABLES");
        }
        return null;
    }

    /** The pool's connections, reporting a MySQL 8.4 server whatever server they are on. */
    private static DataSource reportingMySql(DataSource pool) {
        return new DelegatingDataSource(pool) {
            @Override
            public Connection getConnection() throws SQLException {
                var connection = super.getConnection();
                return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                        (proxy, method, args) -> method.getName().equals("getMetaData")
                                ? mySqlMetaData(connection.getMetaData())
                                : forward(connection, method, args));
            }
        };
    }

    private static DatabaseMetaData mySqlMetaData(DatabaseMetaData real) {
        return (DatabaseMetaData) Proxy.newProxyInstance(QueryTimeoutTest.class.getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDatabaseProductName" -> "MySQL";
                    case "getDatabaseProductVersion" -> "8.4.3";
                    default -> forward(real, method, args);
                });
    }

    private static Object forward(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
