package io.changeflow.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TestDatabaseTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    @Test
    void handsOutAFreshSchemaInUtc() throws SQLException {
        try (var connection = db.dataSource().getConnection(); var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE probe (id INT PRIMARY KEY)");
            try (var r = statement.executeQuery("SELECT DATABASE(), @@session.time_zone, "
                    + "(SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE())")) {
                r.next();
                assertThat(r.getString(1)).isEqualTo(db.schema()).startsWith("cf_testdatabasetest_");
                assertThat(r.getString(2)).isEqualTo("+00:00");
                assertThat(r.getInt(3)).isEqualTo(1);
            }
        }
    }

    @Test
    void givesEverySchemaItsOwnName() {
        assertThat(TestDatabase.schemaName("SameClass")).isNotEqualTo(TestDatabase.schemaName("SameClass"))
                .hasSizeLessThanOrEqualTo(64);
    }

    @Test
    void readsDbUrlAsAServerAddressAndKeepsItsParameters() {
        var server = DatabaseServer.fromUrl("jdbc:mysql://127.0.0.1:3306/ignored?useSSL=true&sslMode=REQUIRED", "root", "");
        assertThat(server.address()).isEqualTo("jdbc:mysql://127.0.0.1:3306/");
        assertThat(server.jdbcUrl("s1")).startsWith("jdbc:mysql://127.0.0.1:3306/s1?")
                .contains("useSSL=true").contains("sslMode=REQUIRED").contains("connectionTimeZone=UTC")
                .doesNotContain("useSSL=false");
        assertThat(DatabaseServer.fromUrl("jdbc:mysql://db:3306", "u", "p").address()).isEqualTo("jdbc:mysql://db:3306/");
    }
}
