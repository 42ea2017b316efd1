package io.changeflow.embeddeddb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EmbeddedMariaDbTest {

    private static final Path FOLDER = Path.of("target", "embedded-mariadb-test");

    @Test
    void keepsDataAcrossRestartsOnTheSameFolderAndStartsFast() throws SQLException {
        var started = System.nanoTime();
        try (var db = EmbeddedMariaDb.startEmpty(FOLDER, 0)) {
            var firstStart = Duration.ofNanos(System.nanoTime() - started);
            assertThat(db.port()).isPositive();
            try (var c = DriverManager.getConnection(db.jdbcUrl("kept"), db.user(), db.password());
                 var s = c.createStatement()) {
                s.execute("CREATE TABLE note (id INT PRIMARY KEY, text VARCHAR(20))");
                s.execute("INSERT INTO note VALUES (1, 'still here')");
            }
            System.out.println("first start (install): " + firstStart.toMillis() + " ms");
        }

        started = System.nanoTime();
        try (var db = EmbeddedMariaDb.start(FOLDER, 0)) {
            var restart = Duration.ofNanos(System.nanoTime() - started);
            System.out.println("restart: " + restart.toMillis() + " ms");
            assertThat(restart).isLessThan(Duration.ofSeconds(10));
            try (var c = DriverManager.getConnection(db.jdbcUrl("kept"), db.user(), db.password());
                 var s = c.createStatement();
                 var r = s.executeQuery("SELECT text, @@session.time_zone FROM note WHERE id = 1")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getString(1)).isEqualTo("still here");
                assertThat(r.getString(2)).isEqualTo("+00:00");
            }
        }
    }

    @Test
    void createsSchemasOverJdbc() throws SQLException {
        try (var db = EmbeddedMariaDb.start(Path.of("target", "embedded-mariadb-schemas"), 0)) {
            db.createSchema("made_over_jdbc");
            try (var c = DriverManager.getConnection(db.serverUrl(), db.user(), db.password());
                 var r = c.createStatement().executeQuery(
                         "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'made_over_jdbc'")) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(1);
            }
        }
    }
}
