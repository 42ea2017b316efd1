package io.changeflow.adapter.persistence;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The client-side deadlines of every database round trip (issue 34), put on the application's HikariCP pool before it
 * starts, so a database that does not answer (a partition, a hung host) costs a caller seconds, not the pool's 30 s
 * default or an unbounded socket read:
 * <ul>
 *   <li>{@code changeflow.persistence.connection-timeout} (3 s): the longest wait for a pooled connection;</li>
 *   <li>{@code changeflow.persistence.validation-timeout} (1 s): the aliveness check of an idle connection the pool
 *       hands out (below the connection timeout);</li>
 *   <li>{@code changeflow.persistence.socket-timeout} (the query timeout + 2 s): the longest wait for any answer on
 *       a connection (the driver's {@code socketTimeout}); longer than the server-side statement limit, so when the
 *       server is there its own limit answers first;</li>
 *   <li>{@code changeflow.persistence.connect-timeout} (3 s): opening a TCP connection (the driver's
 *       {@code connectTimeout});</li>
 *   <li>{@code changeflow.persistence.request-budget} (the socket timeout): all the round trips of one API request
 *       together ({@link BudgetedDataSource}), so a request of many round trips on a slow database answers within it
 *       plus one pool wait;</li>
 *   <li>{@code changeflow.persistence.job-connection-timeout} (15 s, at least the connection timeout): how long a
 *       recurring job or a workflow step waits for a pooled connection in all (the pool's wait, tried again).</li>
 * </ul>
 * Missing, garbled, zero or negative values fall back to the default, never to "no timeout". Where a key is not set
 * but the pool's own Spring property is (e.g. {@code spring.datasource.hikari.connection-timeout}), that one stays.
 * docs/configuration.md "Database, workflow, scheduler and batches".
 */
final class PoolDeadlines {

    static final String CONNECTION_TIMEOUT = "changeflow.persistence.connection-timeout";
    static final String VALIDATION_TIMEOUT = "changeflow.persistence.validation-timeout";
    static final String SOCKET_TIMEOUT = "changeflow.persistence.socket-timeout";
    static final String CONNECT_TIMEOUT = "changeflow.persistence.connect-timeout";
    static final String REQUEST_BUDGET = "changeflow.persistence.request-budget";
    static final String JOB_CONNECTION_TIMEOUT = "changeflow.persistence.job-connection-timeout";

    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(3);
    static final Duration DEFAULT_VALIDATION_TIMEOUT = Duration.ofSeconds(1);
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(3);
    static final Duration DEFAULT_JOB_CONNECTION_TIMEOUT = Duration.ofSeconds(15);
    /** How much longer than the statement limit a connection waits for an answer by default. */
    static final Duration SOCKET_MARGIN = Duration.ofSeconds(2);
    /** HikariCP's floor for the connection and validation timeouts. */
    private static final Duration POOL_FLOOR = Duration.ofMillis(250);

    private static final Logger log = LoggerFactory.getLogger(PoolDeadlines.class);

    private final Duration connectionTimeout;
    private final Duration validationTimeout;
    private final Duration socketTimeout;
    private final Duration connectTimeout;
    private final Duration requestBudget;
    private final Duration jobConnectionTimeout;

    PoolDeadlines(Duration connectionTimeout, Duration validationTimeout, Duration socketTimeout, Duration connectTimeout,
            Duration requestBudget, Duration jobConnectionTimeout) {
        this.connectionTimeout = connectionTimeout;
        this.validationTimeout = validationTimeout;
        this.socketTimeout = socketTimeout;
        this.connectTimeout = connectTimeout;
        this.requestBudget = requestBudget;
        this.jobConnectionTimeout = jobConnectionTimeout;
    }

    /** The deadlines configured in {@code environment} for a pool whose statements are limited to {@code queryTimeout}. */
    static PoolDeadlines of(Environment environment, Duration queryTimeout) {
        var binder = Binder.get(environment);
        var connection = at(binder, CONNECTION_TIMEOUT, DEFAULT_CONNECTION_TIMEOUT);
        if (connection.compareTo(POOL_FLOOR) < 0) {
            connection = POOL_FLOOR;
        }
        var validation = at(binder, VALIDATION_TIMEOUT, DEFAULT_VALIDATION_TIMEOUT);
        if (validation.compareTo(connection) >= 0 || validation.compareTo(POOL_FLOOR) < 0) {
            var fallback = connection.dividedBy(2).compareTo(POOL_FLOOR) < 0 ? POOL_FLOOR : connection.dividedBy(2);
            var chosen = DEFAULT_VALIDATION_TIMEOUT.compareTo(connection) < 0 ? DEFAULT_VALIDATION_TIMEOUT : fallback;
            log.warn("{} must be between {} and {} ({}); using {}", VALIDATION_TIMEOUT, POOL_FLOOR, connection,
                    CONNECTION_TIMEOUT, chosen);
            validation = chosen;
        }
        var queryPlusMargin = Duration.ofSeconds(QueryTimeoutDataSource.seconds(queryTimeout)).plus(SOCKET_MARGIN);
        var socket = at(binder, SOCKET_TIMEOUT, queryPlusMargin);
        if (socket.compareTo(Duration.ofSeconds(QueryTimeoutDataSource.seconds(queryTimeout))) <= 0) {
            log.warn("{} must be longer than the statement limit {} ({}); using {}", SOCKET_TIMEOUT, queryTimeout,
                    PersistenceConfiguration.QUERY_TIMEOUT, queryPlusMargin);
            socket = queryPlusMargin;
        }
        var jobWait = at(binder, JOB_CONNECTION_TIMEOUT, DEFAULT_JOB_CONNECTION_TIMEOUT.compareTo(connection) > 0
                ? DEFAULT_JOB_CONNECTION_TIMEOUT : connection);
        if (jobWait.compareTo(connection) < 0) {
            log.warn("{} must not be shorter than {} ({}); using {}", JOB_CONNECTION_TIMEOUT, connection,
                    CONNECTION_TIMEOUT, connection);
            jobWait = connection;
        }
        return new PoolDeadlines(connection, validation, socket, at(binder, CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT),
                at(binder, REQUEST_BUDGET, socket), jobWait);
    }

    /** The positive duration at {@code key}; {@code fallback} when missing, garbled, zero or negative. */
    static Duration at(Binder binder, String key, Duration fallback) {
        try {
            var configured = binder.bind(key, Duration.class);
            if (!configured.isBound()) {
                return fallback;
            }
            if (!configured.get().isNegative() && !configured.get().isZero()) {
                return configured.get();
            }
            log.warn("{} must be positive; using {}", key, fallback);
        } catch (RuntimeException garbled) {
            log.warn("{} is not a duration; using {}", key, fallback);
        }
        return fallback;
    }

    Duration connectionTimeout() {
        return connectionTimeout;
    }

    Duration validationTimeout() {
        return validationTimeout;
    }

    Duration socketTimeout() {
        return socketTimeout;
    }

    Duration connectTimeout() {
        return connectTimeout;
    }

    Duration requestBudget() {
        return requestBudget;
    }

    Duration jobConnectionTimeout() {
        return jobConnectionTimeout;
    }

    /**
     * Puts the deadlines on {@code pool} (before it starts). A pool timeout set through Spring's own property and not
     * through ours stays, unless it means "wait forever" (HikariCP reads 0 as no timeout).
     */
    void applyTo(HikariDataSource pool, Environment environment) {
        if (environment.containsProperty(CONNECTION_TIMEOUT) || !explicit(environment, "connection-timeout", pool.getConnectionTimeout())) {
            pool.setConnectionTimeout(connectionTimeout.toMillis());
        }
        if (environment.containsProperty(VALIDATION_TIMEOUT) || !explicit(environment, "validation-timeout", pool.getValidationTimeout())
                || pool.getValidationTimeout() >= pool.getConnectionTimeout()) {
            pool.setValidationTimeout(Math.min(validationTimeout.toMillis(), pool.getConnectionTimeout() - 1));
        }
        var driver = pool.getDataSourceProperties();
        if (environment.containsProperty(SOCKET_TIMEOUT) || !positive(driver.getProperty("socketTimeout"))) {
            pool.addDataSourceProperty("socketTimeout", String.valueOf(socketTimeout.toMillis()));
        }
        if (environment.containsProperty(CONNECT_TIMEOUT) || !positive(driver.getProperty("connectTimeout"))) {
            pool.addDataSourceProperty("connectTimeout", String.valueOf(connectTimeout.toMillis()));
        }
        log.info("database deadlines: connection {} ms, validation {} ms, socket {}, connect {}",
                pool.getConnectionTimeout(), pool.getValidationTimeout(), driver.getProperty("socketTimeout"),
                driver.getProperty("connectTimeout"));
    }

    private static boolean explicit(Environment environment, String hikariKey, long millis) {
        return environment.containsProperty("spring.datasource.hikari." + hikariKey) && millis > 0
                && millis < Integer.MAX_VALUE;
    }

    private static boolean positive(String value) {
        try {
            return value != null && Long.parseLong(value.trim()) > 0;
        } catch (NumberFormatException garbled) {
            return false;
        }
    }
}
