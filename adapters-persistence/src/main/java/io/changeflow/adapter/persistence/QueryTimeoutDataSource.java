package io.changeflow.adapter.persistence;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} whose every statement has a deadline ({@code changeflow.persistence.query-timeout}), whoever
 * asks (jOOQ, db-scheduler, health checks); a statement past it is cut and fails with a
 * {@link SQLTimeoutException}, so a lock wait or a runaway query never holds a thread longer. How it is kept
 * depends on the server of each physical connection:
 * <ul>
 *   <li>MariaDB: by the server. The session gets {@code SET SESSION max_statement_time} once, when the pool first
 *       hands the physical connection out; no statement arms the driver's timer (with MySQL Connector/J a
 *       {@code java.util.Timer} task per statement, the largest single cost of a status read). The server's
 *       error 1969 ("max_statement_time exceeded") is thrown as a {@link SQLTimeoutException}, and
 *       {@link Statement#getQueryTimeout} answers the limit unless a caller set a timeout of its own.</li>
 *   <li>any other server (MySQL, whose {@code max_execution_time} covers only SELECT): each statement gets
 *       {@link Statement#setQueryTimeout}; the driver cancels it past the timeout (Connector/J: {@code KILL QUERY}
 *       on a second connection).</li>
 * </ul>
 * A caller may still set a timeout of its own (on MariaDB the session limit stays the upper bound).
 * {@link #withoutDeadline()} is the same pool for Flyway's migrations. Closing it closes the pool it wraps.
 * docs/persistence.md "The statement deadline".
 */
final class QueryTimeoutDataSource extends PreparingDataSource implements AutoCloseable {

    /** MariaDB's ER_STATEMENT_TIMEOUT: "Query execution was interrupted (max_statement_time exceeded)". */
    static final int MARIADB_STATEMENT_TIMEOUT = 1969;

    private static final Set<String> CREATES_STATEMENT = Set.of("createStatement", "prepareStatement", "prepareCall");

    private final int seconds;
    /** Physical connection -> whether its session carries the limit (MariaDB) or its statements the driver's timer. */
    private final Map<Connection, Boolean> serverLimited = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param timeout rounded up to whole seconds (the JDBC unit), at least one */
    QueryTimeoutDataSource(DataSource target, Duration timeout) {
        super(target);
        this.seconds = seconds(timeout);
    }

    static int seconds(Duration timeout) {
        var millis = timeout.toMillis();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (millis + 999) / 1000));
    }

    int seconds() {
        return seconds;
    }

    /** Whether the server limits statements itself: MariaDB (under its own driver or MySQL Connector/J). */
    static boolean limitsStatementsItself(String productName, String productVersion) {
        return contains(productName, "MariaDB") || contains(productVersion, "MariaDB");
    }

    private static boolean contains(@Nullable String value, String part) {
        return value != null && value.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT));
    }

    private static boolean limitsStatementsItself(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        return limitsStatementsItself(metaData.getDatabaseProductName(), metaData.getDatabaseProductVersion());
    }

    /**
     * The wrapped pool without the deadline, for Flyway's migrations (a long migration is not a stuck call): on
     * MariaDB each connection's session limit is lifted ({@code max_statement_time=0}) and set again when the pool
     * hands the connection to the application next; the connection's socket read timeout is lifted too.
     */
    DataSource withoutDeadline() {
        return new PreparingDataSource(obtainTargetDataSource()) {
            @Override
            Connection prepared(Connection connection) throws SQLException {
                return unlimited(connection);
            }
        };
    }

    private Connection unlimited(Connection connection) throws SQLException {
        try {
            serverLimited.remove(connection.unwrap(Connection.class));
            // nor the socket read timeout (PoolDeadlines); the pool sets it back when the connection returns
            connection.setNetworkTimeout(Runnable::run, 0);
            if (limitsStatementsItself(connection)) {
                setSessionLimit(connection, 0);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** {@code connection} under the deadline. */
    @Override
    Connection prepared(Connection connection) throws SQLException {
        boolean byServer;
        try {
            var physical = connection.unwrap(Connection.class);
            var known = serverLimited.get(physical);
            if (known == null) {
                known = limitsStatementsItself(connection);
                if (known) {
                    setSessionLimit(connection, seconds);
                }
                serverLimited.put(physical, known);
            }
            byServer = known;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        InvocationHandler handler = byServer
                ? (proxy, method, args) -> invokeServerLimited(proxy, connection, method, args)
                : (proxy, method, args) -> invokeWithTimer(proxy, connection, method, args);
        return (Connection) Proxy.newProxyInstance(QueryTimeoutDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, handler);
    }

    private static void setSessionLimit(Connection connection, int limitSeconds) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute("SET SESSION max_statement_time = " + limitSeconds);
        }
    }

    private Object invokeWithTimer(Object proxy, Connection connection, Method method, @Nullable Object[] args)
            throws Throwable {
        var identity = identity(proxy, method, args);
        if (identity != null) {
            return identity;
        }
        var result = invoke(connection, method, args);
        if (result instanceof Statement statement && CREATES_STATEMENT.contains(method.getName())) {
            statement.setQueryTimeout(seconds);
        }
        return result;
    }

    private Object invokeServerLimited(Object proxy, Connection connection, Method method, @Nullable Object[] args)
            throws Throwable {
        var identity = identity(proxy, method, args);
        if (identity != null) {
            return identity;
        }
        Object result;
        try {
            result = invoke(connection, method, args);
        } catch (SQLException e) {
            throw asTimeout(e);
        }
        if (result instanceof Statement statement && CREATES_STATEMENT.contains(method.getName())) {
            return Proxy.newProxyInstance(QueryTimeoutDataSource.class.getClassLoader(),
                    new Class<?>[] {method.getReturnType()}, new ServerLimitedStatement(statement));
        }
        return result;
    }

    /** A statement under the session's limit: answers the limit as its query timeout, the server's cut as a timeout. */
    private final class ServerLimitedStatement implements InvocationHandler {

        private final Statement statement;
        private boolean ownTimeout;

        ServerLimitedStatement(Statement statement) {
            this.statement = statement;
        }

        @Override
        public Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
            var identity = identity(proxy, method, args);
            if (identity != null) {
                return identity;
            }
            var name = method.getName();
            if (name.equals("getQueryTimeout") && !ownTimeout) {
                return seconds;
            }
            if (name.equals("setQueryTimeout")) {
                ownTimeout = true;
            }
            try {
                return QueryTimeoutDataSource.invoke(statement, method, args);
            } catch (SQLException e) {
                throw asTimeout(e);
            }
        }
    }

    private static @Nullable Object identity(Object proxy, Method method, @Nullable Object[] args) {
        if (method.getName().equals("equals") && args != null && args.length == 1) {
            return proxy == args[0];
        }
        if (method.getName().equals("hashCode") && (args == null || args.length == 0)) {
            return System.identityHashCode(proxy);
        }
        return null;
    }

    /**
     * {@code method} on {@code target}, throwing what the method threw (not its reflective wrapper), except a
     * {@link NullPointerException} of the JDBC driver on a connection or statement ({@link #driverFailure}).
     */
    static Object invoke(Object target, Method method, @Nullable Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw driverFailure(target, e.getCause());
        }
    }

    /**
     * A {@link NullPointerException} thrown by the driver's connection or statement as what it is: the connection was
     * closed under the caller (Connector/J 9 answers a statement on a connection its abort or the socket timeout just
     * closed with "Cannot invoke NativeSession.getProtocol() because this.session is null", not a SQLException). It
     * becomes a {@link SQLNonTransientConnectionException} of SQLSTATE 08003, so the caller sees "the database did not
     * answer" (503 with Retry-After, a step run again) instead of an internal error (seen in DatabasePartitionSystemTest:
     * a submission during the partition answered 500). Anything else is thrown as it is.
     */
    static Throwable driverFailure(Object target, Throwable thrown) {
        if (thrown instanceof NullPointerException && (target instanceof Statement || target instanceof Connection)) {
            return new SQLNonTransientConnectionException("the connection was closed under the statement (the driver failed: "
                    + thrown.getMessage() + ")", "08003", thrown);
        }
        return thrown;
    }

    /**
     * The server's cut (error 1969 anywhere in the chain) as a {@link SQLTimeoutException}, the root of what the
     * caller sees (the driver's exception is kept as suppressed); anything else unchanged.
     */
    static SQLException asTimeout(SQLException thrown) {
        if (thrown instanceof SQLTimeoutException) {
            return thrown;
        }
        for (Throwable cause = thrown; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == MARIADB_STATEMENT_TIMEOUT) {
                var timeout = new SQLTimeoutException(sql.getMessage(), sql.getSQLState(), sql.getErrorCode());
                timeout.addSuppressed(thrown);
                return timeout;
            }
        }
        return thrown;
    }

    @Override
    public void close() throws Exception {
        if (obtainTargetDataSource() instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
