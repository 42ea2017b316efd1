package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.testsupport.TestDatabase;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.mock.env.MockEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every JDBC statement leaves with a deadline: the query timeout of the wrapped DataSource. */
class QueryTimeoutTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    @Test
    void everyStatementGetsTheDefaultQueryTimeoutOfTenSeconds() throws Exception {
        try (var persistence = Persistence.on(db, 4);
             var connection = persistence.dataSource().getConnection();
             var plain = connection.createStatement();
             var prepared = connection.prepareStatement("select 1");
             var call = connection.prepareCall("select 1")) {
            assertThat(persistence.dataSource()).isInstanceOf(QueryTimeoutDataSource.class);
            assertThat(plain.getQueryTimeout()).isEqualTo(10);
            assertThat(prepared.getQueryTimeout()).isEqualTo(10);
            assertThat(call.getQueryTimeout()).isEqualTo(10);
            int viaJooq = persistence.dsl().connectionResult(c -> {
                try (var statement = c.prepareStatement("select 1")) {
                    return statement.getQueryTimeout();
                }
            });
            assertThat(viaJooq).as("jOOQ's statements (through Spring's transaction-aware proxy)").isEqualTo(10);
        }
    }

    @Test
    void aStatementPastItsTimeoutIsCancelledAndTheConnectionStaysUsable() {
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.query-timeout=1s")) {
            assertThatThrownBy(() -> persistence.dsl().fetch("select sleep(5)"))
                    .isInstanceOf(QueryTimeoutException.class)
                    .hasRootCauseInstanceOf(SQLTimeoutException.class);
            for (int i = 0; i < 3; i++) {
                assertThat(persistence.dsl().fetchValue("select 1")).isEqualTo(1);
            }
        }
    }

    @Test
    void aMissingGarbledZeroOrNegativeTimeoutIsTheDefaultNeverNoTimeout() {
        assertThat(PersistenceConfiguration.queryTimeout(new MockEnvironment())).isEqualTo(Duration.ofSeconds(10));
        for (var configured : new String[] {"0s", "-5s", "soon", " ", "0"}) {
            var environment = new MockEnvironment().withProperty("changeflow.persistence.query-timeout", configured);
            assertThat(PersistenceConfiguration.queryTimeout(environment)).as(configured).isEqualTo(Duration.ofSeconds(10));
        }
        assertThat(PersistenceConfiguration.queryTimeout(
                new MockEnvironment().withProperty("changeflow.persistence.query-timeout", "3s"))).isEqualTo(Duration.ofSeconds(3));
        assertThat(QueryTimeoutDataSource.seconds(Duration.ofMillis(1500))).as("rounded up to whole seconds").isEqualTo(2);
        assertThat(QueryTimeoutDataSource.seconds(Duration.ofMillis(1))).isEqualTo(1);
    }
}
