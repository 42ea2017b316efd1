package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Instances;
import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jooq.autoconfigure.ExceptionTranslatorExecuteListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The persistence adapter: jOOQ implementations of the persistence ports on the Flyway schema in
 * {@code classpath:db/migration}. Needs a {@link DSLContext} (Spring Boot's, so jOOQ transactions
 * join Spring's transaction manager). Every transaction is owned here; callers never hold one.
 *
 * <p>Sessions must run in UTC (instants are stored as UTC {@code DATETIME(3)} and compared with
 * the database clock): put {@code connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true} in
 * the JDBC URL unless the server itself runs in UTC. Startup fails fast otherwise.
 *
 * <p>Every statement on the application's {@link DataSource} has a query timeout
 * ({@code changeflow.persistence.query-timeout}, {@link #DEFAULT_QUERY_TIMEOUT} when missing, garbled, zero or
 * negative: never "no timeout"), kept by MariaDB itself ({@code max_statement_time} per session) or else by the
 * driver; {@link QueryTimeoutDataSource} wraps the DataSource bean, whoever defined it.
 * Flyway's migrations at start-up run without it (a long migration is not a stuck call).
 *
 * <p>A HikariCP pool also gets client-side deadlines on every round trip ({@link PoolDeadlines}: the wait for a
 * pooled connection, its validation, the socket read and connect timeouts), so a database that does not answer at
 * all costs a caller seconds (issue 34).
 */
@Configuration(proxyBeanMethods = false)
public class PersistenceConfiguration {

    /** The query timeout of every JDBC statement unless configured. */
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(10);

    static final String QUERY_TIMEOUT = "changeflow.persistence.query-timeout";

    /** Puts the query timeout on every statement of the DataSource bean. Static: it post-processes other beans. */
    @Bean
    static BeanPostProcessor jdbcQueryTimeout(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof DataSource dataSource && !(bean instanceof QueryTimeoutDataSource)) {
                    var queryTimeout = queryTimeout(environment);
                    if (bean instanceof HikariDataSource pool) {
                        clientDeadlines(pool, environment, queryTimeout);
                    }
                    var budgeted = new BudgetedDataSource(dataSource,
                            PoolDeadlines.of(environment, queryTimeout).socketTimeout());
                    return new QueryTimeoutDataSource(budgeted, queryTimeout);
                }
                return bean;
            }
        };
    }

    private static void clientDeadlines(HikariDataSource pool, Environment environment, Duration queryTimeout) {
        try {
            PoolDeadlines.of(environment, queryTimeout).applyTo(pool, environment);
        } catch (IllegalStateException sealed) {
            LoggerFactory.getLogger(PersistenceConfiguration.class)
                    .warn("the connection pool was started before its deadlines could be set: {}", sealed.getMessage());
        }
    }

    /** Migrations run on the pool without the query timeout (on MariaDB: with the session limit lifted). */
    @Bean
    FlywayConfigurationCustomizer migrationsWithoutQueryTimeout() {
        return configuration -> {
            if (configuration.getDataSource() instanceof QueryTimeoutDataSource timed) {
                configuration.dataSource(timed.withoutDeadline());
            }
        };
    }

    /** The overall database budget of an API request and the pooled-connection wait of long jobs (issue 34). */
    @Bean
    DatabaseBudgets databaseBudgets(Environment environment) {
        var deadlines = PoolDeadlines.of(environment, queryTimeout(environment));
        return new JdbcDatabaseBudgets(deadlines.requestBudget(), deadlines.jobConnectionTimeout());
    }

    /**
     * jOOQ's exception translation (Spring Boot's, with Spring's error codes of the jOOQ dialect), with the error codes
     * loaded when the application starts: loading them (parsing {@code sql-error-codes.xml}) on the first failure
     * held the first requests that met a lost database 1.5 to 4.7 s past their socket timeout (issue 34).
     */
    @Bean
    ExceptionTranslatorExecuteListener jooqExceptionTranslator() {
        return ExceptionTranslatorExecuteListener.of(new LoadedErrorCodes()::translator);
    }

    static Duration queryTimeout(Environment environment) {
        return PoolDeadlines.at(Binder.get(environment), QUERY_TIMEOUT, DEFAULT_QUERY_TIMEOUT);
    }

    @Bean
    Operations operations(DSLContext dsl) {
        return new JooqOperations(dsl);
    }

    @Bean
    Activity activity(DSLContext dsl) {
        return new JooqActivity(dsl);
    }

    @Bean
    Batches batches(DSLContext dsl) {
        return new JooqBatches(dsl);
    }

    @Bean
    IdempotencyRecords idempotencyRecords(DSLContext dsl) {
        return new JooqIdempotencyRecords(dsl);
    }

    @Bean
    CallbackInbox callbackInbox(DSLContext dsl) {
        return new JooqCallbackInbox(dsl);
    }

    @Bean
    NotificationOutbox notificationOutbox(DSLContext dsl) {
        return new JooqNotificationOutbox(dsl);
    }

    @Bean
    ScanCursors scanCursors(DSLContext dsl) {
        return new JooqScanCursors(dsl);
    }

    @Bean
    Instances instances(DSLContext dsl) {
        return new JooqInstances(dsl);
    }

    @Bean
    Drifts drifts(DSLContext dsl) {
        return new JooqDrifts(dsl);
    }

    @Bean
    GrantRecords grantRecords(DSLContext dsl) {
        return new JooqGrantRecords(dsl);
    }

    @Bean
    AuditLog auditLog(DSLContext dsl) {
        return new JooqAuditLog(dsl);
    }

    @Bean
    ClusterRateLimits clusterRateLimits(DSLContext dsl) {
        return new JooqClusterRateLimits(dsl);
    }

    @Bean
    InitializingBean utcSessionCheck(DSLContext dsl) {
        return () -> SessionTimeZone.requireUtc(dsl);
    }
}
