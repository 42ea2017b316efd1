package io.changeflow.application.port.out;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;

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

    /** Why the database did not answer. */
    public enum Reason {
        /** No pooled connection within the pool's wait. */
        POOL_WAIT,
        /** A statement past its deadline. */
        STATEMENT_DEADLINE,
        /** The connection was lost or no answer came on it in time. */
        CONNECTION_LOST
    }

    /** Whether {@code failure} (or anything in its cause chain) means the database did not answer. */
    public static boolean in(Throwable failure) {
        return reason(failure).isPresent();
    }

    /** Why {@code failure} means the database did not answer (the first such cause in its chain); empty when not. */
    public static Optional<Reason> reason(Throwable failure) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        for (var cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException) {
                return Optional.of(Reason.POOL_WAIT);
            }
            if (cause instanceof SQLTimeoutException) {
                return Optional.of(Reason.STATEMENT_DEADLINE);
            }
            if (cause instanceof SQLRecoverableException || cause instanceof SQLNonTransientConnectionException
                    || cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return Optional.of(Reason.CONNECTION_LOST);
            }
        }
        return Optional.empty();
    }
}
