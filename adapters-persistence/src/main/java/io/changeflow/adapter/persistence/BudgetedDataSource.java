package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.DatabaseBudgets;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The pool under the {@link DatabaseBudgets} of the calling thread (issue 34); outside a scope it is the pool as is.
 * <ul>
 *   <li>API request: before every round trip (a statement, a commit, a change of the session) the connection's socket
 *       read timeout is set to what is left of the request's budget (never above the pool's socket timeout); once
 *       nothing is left, a round trip is not sent but fails with a {@link SQLTimeoutException}, and so does taking a
 *       connection. A rollback, and the pool's clean-up when the connection is returned, are never refused: they
 *       get what is left, at least {@link #ROLLBACK_FLOOR}. The pool sets the connection's own timeout back when it
 *       is returned.</li>
 *   <li>long job: a pool wait that ends without a connection is tried again while the job's connection timeout
 *       allows another whole wait.</li>
 * </ul>
 */
final class BudgetedDataSource extends DelegatingDataSource implements AutoCloseable {

    /** The least time a rollback gets, even past the budget (it frees the server's locks sooner than a lost socket). */
    static final Duration ROLLBACK_FLOOR = Duration.ofMillis(500);

    /** Connection methods that never touch the network (Connector/J keeps them locally) and are never budgeted. */
    private static final Set<String> LOCAL = Set.of("close", "isClosed", "unwrap", "isWrapperFor", "getMetaData",
            "getAutoCommit", "getNetworkTimeout", "setNetworkTimeout", "getWarnings", "clearWarnings", "getHoldability",
            "getTransactionIsolation", "isReadOnly", "getCatalog", "getSchema", "getClientInfo", "getTypeMap",
            "toString", "abort");
    private static final Set<String> CREATES_STATEMENT = Set.of("createStatement", "prepareStatement", "prepareCall");

    /**
     * One open budget of a thread: an API request's deadline ({@code total} counted from the start), or a long job's
     * connection wait.
     */
    record Budget(long deadlineNanos, Duration total, @Nullable Duration connectionWait) {

        static Budget apiRequest(Duration total) {
            return new Budget(System.nanoTime() + total.toNanos(), total, null);
        }

        static Budget longJob(Duration connectionWait) {
            return new Budget(Long.MAX_VALUE, Duration.ZERO, connectionWait);
        }
    }

    private static final ThreadLocal<Budget> CURRENT = new ThreadLocal<>();

    private final Duration socketTimeout;

    /** @param socketTimeout the pool's socket read timeout: no round trip of a budget waits longer */
    BudgetedDataSource(DataSource target, Duration socketTimeout) {
        super(target);
        this.socketTimeout = socketTimeout;
    }

    /** Opens {@code budget} on this thread, unless one is open already (then the returned scope does nothing). */
    static DatabaseBudgets.Scope open(Budget budget) {
        if (CURRENT.get() != null) {
            return () -> { };
        }
        CURRENT.set(budget);
        return () -> {
            if (CURRENT.get() == budget) {
                CURRENT.remove();
            }
        };
    }

    @Override
    public Connection getConnection() throws SQLException {
        var budget = CURRENT.get();
        if (budget == null) {
            return obtainTargetDataSource().getConnection();
        }
        if (budget.connectionWait() != null) {
            return patiently(budget.connectionWait());
        }
        left(budget, false);
        var connection = obtainTargetDataSource().getConnection();
        return (Connection) Proxy.newProxyInstance(BudgetedDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new BudgetedConnection(connection, budget));
    }

    /** Another user's connection: as the pool hands it out, outside any budget (nothing here asks for one). */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return obtainTargetDataSource().getConnection(username, password);
    }

    /** Tries the pool again while another whole wait fits in {@code wait}. */
    private Connection patiently(Duration wait) throws SQLException {
        var started = System.nanoTime();
        while (true) {
            var attempt = System.nanoTime();
            try {
                return obtainTargetDataSource().getConnection();
            } catch (SQLTransientConnectionException poolWait) {
                var now = System.nanoTime();
                if (now - started + (now - attempt) > wait.toNanos()) {
                    throw poolWait;
                }
            }
        }
    }

    /** The millis left of {@code budget}; past it a {@link SQLTimeoutException}, or the floor for a rollback. */
    private long left(Budget budget, boolean rollback) throws SQLTimeoutException {
        var millis = Duration.ofNanos(budget.deadlineNanos() - System.nanoTime()).toMillis();
        if (rollback) {
            millis = Math.max(millis, ROLLBACK_FLOOR.toMillis());
        }
        if (millis <= 0) {
            throw new SQLTimeoutException("the request's database budget of " + budget.total() + " is spent");
        }
        return Math.min(millis, socketTimeout.toMillis());
    }

    private void arm(Connection connection, Budget budget, boolean rollback) throws SQLException {
        if (!connection.isClosed()) {
            connection.setNetworkTimeout(Runnable::run, (int) left(budget, rollback));
        }
    }

    private final class BudgetedConnection implements InvocationHandler {

        private final Connection connection;
        private final Budget budget;

        BudgetedConnection(Connection connection, Budget budget) {
            this.connection = connection;
            this.budget = budget;
        }

        @Override
        public Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
            var name = method.getName();
            if (name.equals("equals") && args != null && args.length == 1) {
                return proxy == args[0];
            }
            if (name.equals("hashCode") && (args == null || args.length == 0)) {
                return System.identityHashCode(proxy);
            }
            if (name.equals("close")) {
                // the pool's own clean-up of the connection (a rollback, resetting the session) gets what is left, at
                // least the rollback floor, not whatever the last round trip had
                arm(connection, budget, true);
            } else if (!LOCAL.contains(name) && !CREATES_STATEMENT.contains(name)) {
                arm(connection, budget, name.equals("rollback"));
            }
            var result = QueryTimeoutDataSource.invoke(connection, method, args);
            if (result instanceof Statement statement && CREATES_STATEMENT.contains(name)) {
                return Proxy.newProxyInstance(BudgetedDataSource.class.getClassLoader(),
                        new Class<?>[] {method.getReturnType()}, (p, m, a) -> {
                            if (m.getName().equals("equals") && a != null && a.length == 1) {
                                return p == a[0];
                            }
                            if (m.getName().equals("hashCode") && (a == null || a.length == 0)) {
                                return System.identityHashCode(p);
                            }
                            if (m.getName().startsWith("execute")) {
                                arm(connection, budget, false);
                            }
                            return QueryTimeoutDataSource.invoke(statement, m, a);
                        });
            }
            return result;
        }
    }

    @Override
    public void close() throws Exception {
        if (obtainTargetDataSource() instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
