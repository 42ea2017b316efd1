package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import org.jooq.DSLContext;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The persistence adapter: jOOQ implementations of the persistence ports on the Flyway schema in
 * {@code classpath:db/migration}. Needs a {@link DSLContext} (Spring Boot's, so jOOQ transactions
 * join Spring's transaction manager). Every transaction is owned here; callers never hold one.
 *
 * <p>Sessions must run in UTC (instants are stored as UTC {@code DATETIME(3)} and compared with
 * the database clock): put {@code connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true} in
 * the JDBC URL unless the server itself runs in UTC. Startup fails fast otherwise.
 */
@Configuration(proxyBeanMethods = false)
public class PersistenceConfiguration {

    @Bean
    Operations operations(DSLContext dsl) {
        return new JooqOperations(dsl);
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
