package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.ExecuteListenerProvider;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The adapter wired as the application wires it (Spring Boot's DataSource, transaction manager,
 * Flyway and jOOQ auto-configuration plus {@link PersistenceConfiguration}) on a test schema.
 */
final class Persistence implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private Persistence(ConfigurableApplicationContext context) {
        this.context = context;
    }

    static Persistence on(TestDatabase db, int poolSize) {
        return on(db, poolSize, new String[0]);
    }

    /** @param properties further {@code key=value} properties, e.g. {@code changeflow.persistence.query-timeout=1s} */
    static Persistence on(TestDatabase db, int poolSize, String... properties) {
        var context = new SpringApplicationBuilder(Wiring.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .properties(
                        "spring.main.banner-mode=off",
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "spring.datasource.hikari.maximum-pool-size=" + poolSize,
                        "spring.datasource.hikari.minimum-idle=2",
                        "spring.datasource.hikari.connection-timeout=60000")
                .properties(properties)
                .run();
        return new Persistence(context);
    }

    javax.sql.DataSource dataSource() {
        return context.getBean(javax.sql.DataSource.class);
    }

    DSLContext dsl() {
        return context.getBean(DSLContext.class);
    }

    Operations operations() {
        return context.getBean(Operations.class);
    }

    Activity activity() {
        return context.getBean(Activity.class);
    }

    Batches batches() {
        return context.getBean(Batches.class);
    }

    IdempotencyRecords idempotencyRecords() {
        return context.getBean(IdempotencyRecords.class);
    }

    CallbackInbox callbackInbox() {
        return context.getBean(CallbackInbox.class);
    }

    AuditLog auditLog() {
        return context.getBean(AuditLog.class);
    }

    ClusterRateLimits clusterRateLimits() {
        return context.getBean(ClusterRateLimits.class);
    }

    ScanCursors scanCursors() {
        return context.getBean(ScanCursors.class);
    }

    Flyway flyway() {
        return context.getBean(Flyway.class);
    }

    StatementRecorder statements() {
        return context.getBean(StatementRecorder.class);
    }

    @Override
    public void close() {
        context.close();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
            TransactionAutoConfiguration.class, FlywayAutoConfiguration.class, JooqAutoConfiguration.class})
    @Import(PersistenceConfiguration.class)
    static class Wiring {

        @Bean
        StatementRecorder statementRecorder() {
            return new StatementRecorder();
        }

        @Bean
        ExecuteListenerProvider statementRecorderProvider(StatementRecorder recorder) {
            return new DefaultExecuteListenerProvider(recorder);
        }
    }
}
