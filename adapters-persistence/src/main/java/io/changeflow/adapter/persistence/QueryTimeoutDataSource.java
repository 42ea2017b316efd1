package io.changeflow.adapter.persistence;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A {@link DataSource} whose every statement has a query timeout ({@code changeflow.persistence.query-timeout}):
 * each statement a connection creates gets {@link Statement#setQueryTimeout} before anyone uses it, whoever
 * asks (jOOQ, db-scheduler, health checks). A caller may still set its own. The driver cancels a statement
 * past its timeout (MySQL Connector/J: {@code KILL QUERY} on a second connection) and throws
 * {@link java.sql.SQLTimeoutException}, so a lock wait or a runaway query never holds a thread longer.
 * Closing it closes the pool it wraps.
 */
final class QueryTimeoutDataSource extends DelegatingDataSource implements AutoCloseable {

    private static final Set<String> CREATES_STATEMENT = Set.of("createStatement", "prepareStatement", "prepareCall");

    private final int seconds;

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

    @Override
    public Connection getConnection() throws SQLException {
        return withTimeouts(obtainTargetDataSource().getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return withTimeouts(obtainTargetDataSource().getConnection(username, password));
    }

    private Connection withTimeouts(Connection connection) {
        InvocationHandler handler = (proxy, method, args) -> invoke(proxy, connection, method, args);
        return (Connection) Proxy.newProxyInstance(QueryTimeoutDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, handler);
    }

    private Object invoke(Object proxy, Connection connection, Method method, Object[] args) throws Throwable {
        if (method.getName().equals("equals") && args != null && args.length == 1) {
            return proxy == args[0];
        }
        if (method.getName().equals("hashCode") && (args == null || args.length == 0)) {
            return System.identityHashCode(proxy);
        }
        Object result;
        try {
            result = method.invoke(connection, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        if (result instanceof Statement statement && CREATES_STATEMENT.contains(method.getName())) {
            statement.setQueryTimeout(seconds);
        }
        return result;
    }

    @Override
    public void close() throws Exception {
        if (obtainTargetDataSource() instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
