package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Instances;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.testsupport.DatabaseContext;
import io.changeflow.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.ExecuteListenerProvider;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The adapter wired as the application wires it (Spring Boot's DataSource, transaction manager,
 * Flyway and jOOQ auto-configuration plus {@link PersistenceConfiguration}) on a test schema.
 * Either on a given schema ({@link #on}, closed by the caller), or as a static extension on a fresh
 * schema of its own for one test class, wired before the class's {@code @BeforeAll} methods run:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Persistence persistence = Persistence.onFreshSchema(4);
 * }</pre>
 */
final class Persistence implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    private final TestDatabase ownSchema;
    private final int poolSize;
    private ConfigurableApplicationContext context;

    private Persistence(TestDatabase ownSchema, int poolSize, ConfigurableApplicationContext context) {
        this.ownSchema = ownSchema;
        this.poolSize = poolSize;
        this.context = context;
    }

    static Persistence on(TestDatabase db, int poolSize) {
        return on(db, poolSize, new String[0]);
    }

    /** @param properties further {@code key=value} properties, e.g. {@code changeflow.persistence.query-timeout=1s} */
    static Persistence on(TestDatabase db, int poolSize, String... properties) {
        return new Persistence(null, poolSize, start(db, poolSize, properties));
    }

    /** A static extension: a fresh schema for the test class, the adapter on it with a pool of {@code poolSize}. */
    static Persistence onFreshSchema(int poolSize) {
        return new Persistence(TestDatabase.freshSchema(), poolSize, null);
    }

    private static ConfigurableApplicationContext start(TestDatabase db, int poolSize, String... properties) {
        return DatabaseContext.start(db, poolSize, 2, Wiring.class, properties);
    }

    @Override
    public void beforeAll(ExtensionContext extension) {
        ownSchema.beforeAll(extension);
        context = start(ownSchema, poolSize);
    }

    @Override
    public void afterAll(ExtensionContext extension) {
        close();
        ownSchema.afterAll(extension);
    }

    javax.sql.DataSource dataSource() {
        return context.getBean(javax.sql.DataSource.class);
    }

    DatabaseBudgets budgets() {
        return context.getBean(DatabaseBudgets.class);
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

    Drifts drifts() {
        return context.getBean(Drifts.class);
    }

    /** The operations store on emptied request tables (every table a request writes, in an order the keys allow). */
    Operations operationsOnEmptyTables() {
        for (var table : new String[] {"deploy_callback_operation", "merge_batch_membership_history", "merge_batch_request",
                "merge_batch", "binding_history", "binding", "operation_history", "audit_log", "operation"}) {
            dsl().execute("DELETE FROM " + table);
        }
        return operations();
    }

    GrantRecords grantRecords() {
        return context.getBean(GrantRecords.class);
    }

    ScanCursors scanCursors() {
        return context.getBean(ScanCursors.class);
    }

    Instances instances() {
        return context.getBean(Instances.class);
    }

    io.changeflow.application.port.out.NotificationOutbox notificationOutbox() {
        return context.getBean(io.changeflow.application.port.out.NotificationOutbox.class);
    }

    Flyway flyway() {
        return context.getBean(Flyway.class);
    }

    StatementRecorder statements() {
        return context.getBean(StatementRecorder.class);
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
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
