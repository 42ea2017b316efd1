package io.changeflow.testsupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * A fresh, empty schema on a real MySQL-compatible server for one test class (which server: see
 * {@link DatabaseServer}). Register it as a static extension; the schema is created before the
 * first test and dropped after the last (keep it for a look with {@code -Dtestdb.keep=true}):
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TestDatabase db = TestDatabase.freshSchema().withMaxPoolSize(80);
 *
 * @Test void something() { var ds = db.dataSource(); var url = db.jdbcUrl(); }
 * }</pre>
 *
 * <p>Outside JUnit's extension model (e.g. a benchmark or a plain main method), use {@link #open()} and
 * {@link #close()}.
 * Schema names carry a random suffix, so parallel runs on one shared server never collide.
 *
 * <p>Run the tests against a server of your own with {@code DB_URL=jdbc:mysql://127.0.0.1:3306/
 * DB_USER=root DB_PASSWORD= ./mvnw verify}.
 */
public final class TestDatabase implements ClassScoped {

    private static final SecureRandom RANDOM = new SecureRandom();

    private int maxPoolSize = 10;
    private String schema;
    private HikariDataSource dataSource;

    private TestDatabase() {
    }

    public static TestDatabase freshSchema() {
        return new TestDatabase();
    }

    /** The pool size of {@link #dataSource()} (default 10); race tests want one connection per thread. */
    public TestDatabase withMaxPoolSize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a pool has at least one connection");
        }
        this.maxPoolSize = size;
        return this;
    }

    /** Creates the schema, named after nothing in particular. */
    public TestDatabase open() {
        return open("test");
    }

    /** Creates the schema, named after {@code hint} (e.g. the test class) plus a random suffix. */
    @Override
    public synchronized TestDatabase open(String hint) {
        if (schema != null) {
            return this;
        }
        var server = DatabaseServer.get();
        var name = schemaName(hint);
        try (var connection = server.connectToServer(); var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test schema " + name + " on " + server.address(), e);
        }
        schema = name;
        return this;
    }

    /** Closes the pool and drops the schema (unless {@code -Dtestdb.keep=true}). */
    @Override
    public synchronized void close() {
        if (schema == null) {
            return;
        }
        if (dataSource != null) {
            dataSource.close();
            dataSource = null;
        }
        if (!Boolean.getBoolean("testdb.keep")) {
            try (var connection = DatabaseServer.get().connectToServer(); var statement = connection.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS `" + schema + "`");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot drop test schema " + schema, e);
            }
        }
        schema = null;
    }

    public DatabaseServer server() {
        return DatabaseServer.get();
    }

    public String schema() {
        return requireOpen();
    }

    /** The URL of this class's schema (mysql-connector-j). */
    public String jdbcUrl() {
        return server().jdbcUrl(requireOpen());
    }

    public String user() {
        return server().user();
    }

    public String password() {
        return server().password();
    }

    /** A pooled DataSource (HikariCP) on the schema, closed with the schema. */
    public synchronized DataSource dataSource() {
        if (dataSource == null) {
            var config = new HikariConfig();
            config.setJdbcUrl(jdbcUrl());
            config.setUsername(user());
            config.setPassword(password());
            config.setMaximumPoolSize(maxPoolSize);
            config.setMinimumIdle(1);
            config.setPoolName("test-" + schema);
            dataSource = new HikariDataSource(config);
        }
        return dataSource;
    }

    private String requireOpen() {
        if (schema == null) {
            throw new IllegalStateException("the test schema is not open: register TestDatabase as a static "
                    + "@RegisterExtension field, or call open()");
        }
        return schema;
    }

    static String schemaName(String hint) {
        var base = hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        if (base.length() > 40) {
            base = base.substring(0, 40);
        }
        var suffix = new byte[5];
        RANDOM.nextBytes(suffix);
        return "cf_" + base + "_" + HexFormat.of().formatHex(suffix);
    }
}
