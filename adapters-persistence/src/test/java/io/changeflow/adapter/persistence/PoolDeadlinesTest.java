package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariDataSource;
import io.changeflow.application.port.out.DatabaseUnavailable;
import io.changeflow.testsupport.FaultProxy;
import io.changeflow.testsupport.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.mock.env.MockEnvironment;

/**
 * The client-side deadlines of the pool (issue 34): what each key means, the fail-safe defaults, and a database behind
 * a {@link FaultProxy} that holds every packet (a partition): statements and the pool's wait end with a failure
 * {@link DatabaseUnavailable} recognises instead of hanging, and the pool answers again once the network heals.
 */
class PoolDeadlinesTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    @Test
    void theDefaultsAreSecondsAndTheSocketWaitsLongerThanTheStatementLimit() {
        var deadlines = PoolDeadlines.of(new MockEnvironment(), Duration.ofSeconds(10));
        assertThat(deadlines.connectionTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(deadlines.validationTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(deadlines.socketTimeout()).isEqualTo(Duration.ofSeconds(12));
        assertThat(deadlines.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(PoolDeadlines.of(new MockEnvironment(), Duration.ofMillis(4_500)).socketTimeout())
                .as("the statement limit in whole seconds, plus the margin").isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aRequestsBudgetIsTheSocketTimeoutAndALongJobWaitsFifteenSecondsForAConnectionByDefault() {
        var deadlines = PoolDeadlines.of(new MockEnvironment(), Duration.ofSeconds(10));
        assertThat(deadlines.requestBudget()).as("one round trip's worth, for all of them").isEqualTo(Duration.ofSeconds(12));
        assertThat(deadlines.jobConnectionTimeout()).isEqualTo(Duration.ofSeconds(15));
        var sandbox = new MockEnvironment().withProperty(PoolDeadlines.CONNECTION_TIMEOUT, "2s");
        assertThat(PoolDeadlines.of(sandbox, Duration.ofSeconds(3)).requestBudget()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aGarbledBudgetOrJobWaitFallsBackToItsDefaultAndAJobNeverWaitsLessThanARequest() {
        var garbled = new MockEnvironment()
                .withProperty(PoolDeadlines.REQUEST_BUDGET, "a while")
                .withProperty(PoolDeadlines.JOB_CONNECTION_TIMEOUT, "-1s");
        var deadlines = PoolDeadlines.of(garbled, Duration.ofSeconds(10));
        assertThat(deadlines.requestBudget()).isEqualTo(Duration.ofSeconds(12));
        assertThat(deadlines.jobConnectionTimeout()).isEqualTo(Duration.ofSeconds(15));
        var shorter = new MockEnvironment()
                .withProperty(PoolDeadlines.CONNECTION_TIMEOUT, "4s")
                .withProperty(PoolDeadlines.JOB_CONNECTION_TIMEOUT, "1s")
                .withProperty(PoolDeadlines.REQUEST_BUDGET, "6s");
        assertThat(PoolDeadlines.of(shorter, Duration.ofSeconds(10)).jobConnectionTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(PoolDeadlines.of(shorter, Duration.ofSeconds(10)).requestBudget()).isEqualTo(Duration.ofSeconds(6));
        var longPoolWait = new MockEnvironment().withProperty(PoolDeadlines.CONNECTION_TIMEOUT, "20s");
        assertThat(PoolDeadlines.of(longPoolWait, Duration.ofSeconds(10)).jobConnectionTimeout())
                .as("the default is never below the pool's wait").isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void garbledZeroOrNegativeValuesFallBackToTheDefaultsNeverToNoTimeout() {
        var environment = new MockEnvironment()
                .withProperty(PoolDeadlines.CONNECTION_TIMEOUT, "soon")
                .withProperty(PoolDeadlines.VALIDATION_TIMEOUT, "0")
                .withProperty(PoolDeadlines.SOCKET_TIMEOUT, "-5s")
                .withProperty(PoolDeadlines.CONNECT_TIMEOUT, "");
        var deadlines = PoolDeadlines.of(environment, Duration.ofSeconds(10));
        assertThat(deadlines.connectionTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(deadlines.validationTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(deadlines.socketTimeout()).isEqualTo(Duration.ofSeconds(12));
        assertThat(deadlines.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aSocketTimeoutNotLongerThanTheStatementLimitIsRaisedAboveIt() {
        var environment = new MockEnvironment().withProperty(PoolDeadlines.SOCKET_TIMEOUT, "5s");
        assertThat(PoolDeadlines.of(environment, Duration.ofSeconds(5)).socketTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aValidationTimeoutNotBelowTheConnectionTimeoutIsBroughtBelowIt() {
        var environment = new MockEnvironment()
                .withProperty(PoolDeadlines.CONNECTION_TIMEOUT, "800ms")
                .withProperty(PoolDeadlines.VALIDATION_TIMEOUT, "2s");
        var deadlines = PoolDeadlines.of(environment, Duration.ofSeconds(10));
        assertThat(deadlines.connectionTimeout()).isEqualTo(Duration.ofMillis(800));
        assertThat(deadlines.validationTimeout()).isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void thePoolAndEveryConnectionCarryTheDeadlines() throws Exception {
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.connection-timeout=2s",
                "changeflow.persistence.query-timeout=4s")) {
            var pool = persistence.dataSource().unwrap(HikariDataSource.class);
            assertThat(pool.getConnectionTimeout()).isEqualTo(2_000);
            assertThat(pool.getValidationTimeout()).isEqualTo(1_000);
            assertThat(pool.getDataSourceProperties().getProperty("connectTimeout")).isEqualTo("3000");
            try (var connection = persistence.dataSource().getConnection()) {
                assertThat(connection.getNetworkTimeout()).as("the socket read timeout").isEqualTo(6_000);
            }
        }
    }

    @Test
    void anExplicitPoolWaitStaysWhenOurKeyIsNotSet() throws Exception {
        // the test harness sets spring.datasource.hikari.connection-timeout=60000 (pool contention in race tests)
        try (var persistence = Persistence.on(db, 2)) {
            assertThat(persistence.dataSource().unwrap(HikariDataSource.class).getConnectionTimeout()).isEqualTo(60_000);
        }
    }

    @Test
    void aPartitionEndsStatementsAndThePoolWaitWithinTheDeadlinesAndThePoolRecovers() {
        try (var proxy = FaultProxy.toServerOf(db.jdbcUrl());
             var persistence = Persistence.on(db, 2, "spring.datasource.url=" + proxy.proxied(db.jdbcUrl()),
                     "changeflow.persistence.query-timeout=1s", "changeflow.persistence.socket-timeout=2s",
                     "changeflow.persistence.connection-timeout=1s", "changeflow.persistence.validation-timeout=500ms")) {
            var dsl = persistence.dsl();
            assertThat(dsl.fetchValue("select 1")).isEqualTo(1);
            proxy.hold();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                assertThatThrownBy(() -> dsl.fetchValue("select 1")).as("a statement on a pooled connection")
                        .satisfies(e -> assertThat(DatabaseUnavailable.in(e)).isTrue());
                for (int i = 0; i < 3; i++) {
                    assertThatThrownBy(() -> dsl.fetchValue("select 2")).as("the pool's wait")
                            .satisfies(e -> assertThat(DatabaseUnavailable.in(e)).isTrue());
                }
            }, "nothing waits for the network to heal");
            proxy.pass();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                Integer answer = null;
                for (int attempt = 0; attempt < 20 && answer == null; attempt++) {
                    try {
                        answer = ((Number) dsl.fetchValue("select 3")).intValue();
                    } catch (RuntimeException stillBroken) {
                        assertThat(DatabaseUnavailable.in(stillBroken)).isTrue();
                    }
                }
                assertThat(answer).as("the pool answers again by itself").isEqualTo(3);
            });
        }
    }
}
