package io.changeflow.application.port.out;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;

/**
 * How a failure of the persistence ports says "the database did not answer" (issue 34): the ports throw whatever
 * their technology throws (jOOQ's or Spring's data access exceptions), with the JDBC driver's or the pool's
 * exception in the cause chain. The database is unavailable, not wrong, when that chain holds:
 * <ul>
 *   <li>no pooled connection in time ({@link SQLTransientConnectionException}, the pool's wait);</li>
 *   <li>a statement past its deadline ({@link SQLTimeoutException}: the server's statement limit or the driver's);</li>
 *   <li>a lost connection: the link failed or no answer came within the socket timeout
 *       ({@link SQLRecoverableException}, e.g. Connector/J's "Communications link failure"), or the connection was
 *       closed under the caller ({@link SQLNonTransientConnectionException}), or any SQLSTATE of class {@code 08}
 *       (connection exception).</li>
 * </ul>
 * Nothing of such a failure was committed by the statement that failed: a caller retries later (a step runs again,
 * an HTTP request answers 503 with {@code Retry-After}), it never writes a failure state for it.
 */
public final class DatabaseUnavailable {

    private DatabaseUnavailable() {
    }

    /** Whether {@code failure} (or anything in its cause chain) means the database did not answer. */
    public static boolean in(Throwable failure) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        for (var cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLTimeoutException
                    || cause instanceof SQLRecoverableException || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }
}
