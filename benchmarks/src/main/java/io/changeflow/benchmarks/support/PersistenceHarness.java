package io.changeflow.benchmarks.support;

import io.changeflow.adapter.persistence.PersistenceConfiguration;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.testsupport.DatabaseContext;
import io.changeflow.testsupport.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.ExecuteListenerProvider;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The persistence adapter wired as the application wires it: Spring Boot's DataSource (HikariCP),
 * transaction manager, Flyway and jOOQ auto-configuration plus the public
 * {@link PersistenceConfiguration} (whose port implementations are package-private), on a fresh
 * schema of {@link TestDatabase} (DB_URL, else an embedded MariaDB), with a
 * {@link StatementCounter} on every statement.
 */
public final class PersistenceHarness implements AutoCloseable {

    private final TestDatabase db;
    private final ConfigurableApplicationContext context;

    private PersistenceHarness(TestDatabase db, ConfigurableApplicationContext context) {
        this.db = db;
        this.context = context;
    }

    /** A fresh schema named after {@code hint}, migrated, with a pool of {@code poolSize} connections. */
    public static PersistenceHarness open(String hint, int poolSize) {
        var db = TestDatabase.freshSchema().open(hint);
        var context = DatabaseContext.start(db, poolSize, poolSize, Wiring.class,
                "spring.jooq.sql-dialect=MYSQL",
                "logging.level.root=WARN");
        return new PersistenceHarness(db, context);
    }

    public TestDatabase database() {
        return db;
    }

    /** Which database the run used: a line for the benchmark's output. */
    public String describe() {
        var server = db.server();
        return "database: " + server.kind() + " " + server.address() + " schema " + db.schema();
    }

    public DSLContext dsl() {
        return context.getBean(DSLContext.class);
    }

    public Operations operations() {
        return context.getBean(Operations.class);
    }

    public Batches batches() {
        return context.getBean(Batches.class);
    }

    public IdempotencyRecords idempotencyRecords() {
        return context.getBean(IdempotencyRecords.class);
    }

    public ScanCursors scanCursors() {
        return context.getBean(ScanCursors.class);
    }

    public CallbackInbox callbackInbox() {
        return context.getBean(CallbackInbox.class);
    }

    public AuditLog auditLog() {
        return context.getBean(AuditLog.class);
    }

    public StatementCounter statements() {
        return context.getBean(StatementCounter.class);
    }

    /** Closes the pool and drops the schema (keep it with {@code -Dtestdb.keep=true}). */
    @Override
    public void close() {
        context.close();
        db.close();
    }

    @Configuration(proxyBeanMethods = false)
    @Import(PersistenceConfiguration.class)
    static class Wiring {

        @Bean
        StatementCounter statementCounter() {
            return new StatementCounter();
        }

        @Bean
        ExecuteListenerProvider statementCounterProvider(StatementCounter counter) {
            return new DefaultExecuteListenerProvider(counter);
        }
    }
}
