package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.DatabaseUnavailable;
import io.changeflow.testsupport.FaultProxy;
import io.changeflow.testsupport.TestDatabase;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The overall database budgets of issue 34 on the real pool ({@link BudgetedDataSource}): an API request of many round
 * trips on a slow database (a {@link FaultProxy} delaying every packet) ends when its budget is spent, with a failure
 * {@link DatabaseUnavailable} recognises, while the same work outside a request runs to its end; a long job waits for
 * a pooled connection longer than the pool's own wait. Counts and outcomes are asserted, not durations.
 */
class DatabaseBudgetsTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    static final int ROUND_TRIPS = 6;

    @Test
    void anApiRequestOfManyRoundTripsOnASlowDatabaseStopsWhenItsBudgetIsSpentButWorkOutsideARequestRunsOn()
            throws Exception {
        try (var proxy = FaultProxy.toServerOf(db.jdbcUrl());
             var persistence = Persistence.on(db, 2, "spring.datasource.url=" + proxy.proxied(db.jdbcUrl()),
                     "changeflow.persistence.query-timeout=3s", "changeflow.persistence.connection-timeout=2s",
                     "changeflow.persistence.validation-timeout=1500ms", "changeflow.persistence.request-budget=1s")) {
            var dsl = persistence.dsl();
            var budgets = persistence.budgets();
            assertThat(dsl.fetchValue("select 1")).isEqualTo(1);
            // every packet 200 ms late each way: a round trip of about 400 ms, far within each round trip's deadline
            // (socket 5 s), but six of them are about 2.4 s, over the request's budget of 1 s
            proxy.delay(Duration.ofMillis(200));

            var outside = 0;
            for (int i = 0; i < ROUND_TRIPS; i++) {
                dsl.fetchValue("select 1");
                outside++;
            }
            assertThat(outside).as("outside a request only each round trip has a deadline").isEqualTo(ROUND_TRIPS);

            var done = new int[1];
            try (var request = budgets.apiRequest()) {
                assertThatThrownBy(() -> {
                    for (int i = 0; i < ROUND_TRIPS; i++) {
                        dsl.fetchValue("select 1");
                        done[0]++;
                    }
                }).as("the request's database work past its budget").satisfies(e -> {
                    assertThat(DatabaseUnavailable.in(e)).as(e.toString()).isTrue();
                });
            }
            assertThat(done[0]).as("round trips done within the 1 s budget").isLessThan(ROUND_TRIPS);

            proxy.pass();
            try (var connection = persistence.dataSource().getConnection()) {
                assertThat(connection.getNetworkTimeout()).as("the pool's socket timeout again after the request")
                        .isEqualTo(5_000);
            }
            try (var request = budgets.apiRequest()) {
                assertThat(dsl.fetchValue("select 2")).as("a new request has a budget of its own").isEqualTo(2);
            }
        }
    }

    @Test
    void aLongJobWaitsForAPooledConnectionLongerThanARequestDoes() throws Exception {
        try (var persistence = Persistence.on(db, 1, "changeflow.persistence.connection-timeout=500ms", "changeflow.persistence.validation-timeout=250ms",
                "changeflow.persistence.job-connection-timeout=20s")) {
            var budgets = persistence.budgets();
            var dataSource = persistence.dataSource();
            var taken = new CountDownLatch(1);
            var release = new CountDownLatch(1);
            var holder = Executors.newSingleThreadExecutor();
            try {
                holder.submit(() -> {
                    try (var only = dataSource.getConnection()) {
                        taken.countDown();
                        release.await(30, TimeUnit.SECONDS);
                    }
                    return null;
                });
                assertThat(taken.await(30, TimeUnit.SECONDS)).isTrue();

                assertThatThrownBy(dataSource::getConnection).as("a request waits the pool's 500 ms, then gives up")
                        .isInstanceOf(SQLTransientConnectionException.class);

                // the connection is handed back after about three pool waits: a long job is still waiting for it
                var job = Executors.newSingleThreadExecutor();
                try {
                    var got = job.submit(() -> {
                        try (var scope = budgets.longJob(); var connection = dataSource.getConnection()) {
                            return connection.isValid(1);
                        }
                    });
                    Thread.sleep(1_500);
                    release.countDown();
                    assertThat(got.get(60, TimeUnit.SECONDS)).as("the long job got the connection").isTrue();
                } finally {
                    job.shutdownNow();
                }
            } finally {
                release.countDown();
                holder.shutdownNow();
            }
        }
    }

    @Test
    void scopesBelongToTheirThreadAndDoNotNest() throws Exception {
        try (var persistence = Persistence.on(db, 2, "changeflow.persistence.request-budget=1ms")) {
            var budgets = persistence.budgets();
            var dsl = persistence.dsl();
            try (var request = budgets.apiRequest()) {
                Thread.sleep(5);
                try (var inner = budgets.apiRequest()) {
                    assertThatThrownBy(() -> dsl.fetchValue("select 1")).as("the outer budget still counts")
                            .satisfies(e -> assertThat(DatabaseUnavailable.reason(e))
                                    .contains(DatabaseUnavailable.Reason.STATEMENT_DEADLINE));
                }
                var other = Executors.newSingleThreadExecutor();
                try {
                    assertThat(other.submit(() -> dsl.fetchValue("select 3")).get(30, TimeUnit.SECONDS))
                            .as("another thread is outside the request").isEqualTo(3);
                } finally {
                    other.shutdownNow();
                }
            }
            assertThat(dsl.fetchValue("select 4")).as("closed: no budget any more").isEqualTo(4);
        }
    }
}
