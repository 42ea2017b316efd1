package io.changeflow.bootstrap;

import io.changeflow.embeddeddb.EmbeddedMariaDb;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The embedded default: when no {@code spring.datasource.url} is configured, starts an embedded
 * MariaDB whose files live under {@code changeflow.embedded-db.folder} (default {@code data/mariadb}
 * under the working directory; data survives restarts) and points the datasource at it. With
 * {@code spring.datasource.url} set (MySQL 8.0+ or MariaDB 10.6+) nothing is started. Set
 * {@code changeflow.embedded-db.enabled=false} to refuse to start without a configured database.
 */
class EmbeddedDatabaseStarter implements EnvironmentPostProcessor, Ordered {

    static final String SCHEMA = "changeflow";

    private static volatile EmbeddedMariaDb running;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty("spring.datasource.url")
                || !environment.getProperty("changeflow.embedded-db.enabled", Boolean.class, true)) {
            return;
        }
        var folder = Path.of(environment.getProperty("changeflow.embedded-db.folder", "data/mariadb"));
        var port = environment.getProperty("changeflow.embedded-db.port", Integer.class, 0);
        var db = startOnce(folder, port);
        environment.getPropertySources().addFirst(new MapPropertySource("changeflow-embedded-db", Map.of(
                "spring.datasource.url", db.jdbcUrl(SCHEMA),
                "spring.datasource.username", db.user(),
                "spring.datasource.password", db.password())));
    }

    private static synchronized EmbeddedMariaDb startOnce(Path folder, int port) {
        if (running == null) {
            running = EmbeddedMariaDb.start(folder, port);
            Runtime.getRuntime().addShutdownHook(new Thread(running::close, "embedded-mariadb-stop"));
        }
        return running;
    }

    @Override
    public int getOrder() {
        // After the config data (application.yml, profiles, command line) has been loaded.
        return Ordered.LOWEST_PRECEDENCE;
    }
}
