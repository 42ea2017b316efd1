package io.changeflow.testsupport;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring context on a {@link TestDatabase} schema with Spring Boot's DataSource (HikariCP), transaction
 * manager, Flyway and jOOQ auto-configuration, plus the caller's own wiring (e.g. the persistence adapter's
 * configuration). Needs spring-boot-starter-jooq and -flyway on the caller's class path.
 */
public final class DatabaseContext {

    private DatabaseContext() {
    }

    /**
     * Starts the context on {@code db}'s schema with a pool of {@code poolSize} connections, {@code minimumIdle}
     * of them kept open.
     *
     * @param properties further {@code key=value} properties
     */
    public static ConfigurableApplicationContext start(TestDatabase db, int poolSize, int minimumIdle, Class<?> wiring,
            String... properties) {
        return new SpringApplicationBuilder(DataAutoConfiguration.class, wiring)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .properties(
                        "spring.main.banner-mode=off",
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "spring.datasource.hikari.maximum-pool-size=" + poolSize,
                        "spring.datasource.hikari.minimum-idle=" + minimumIdle,
                        "spring.datasource.hikari.connection-timeout=60000")
                .properties(properties)
                .run();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
            TransactionAutoConfiguration.class, FlywayAutoConfiguration.class, JooqAutoConfiguration.class})
    static class DataAutoConfiguration {
    }
}
