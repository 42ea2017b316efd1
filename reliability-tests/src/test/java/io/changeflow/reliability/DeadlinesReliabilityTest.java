package io.changeflow.reliability;

import static io.changeflow.reliability.SecurityReliabilityTest.code;
import static io.changeflow.reliability.SecurityReliabilityTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.EdgeCluster;
import io.changeflow.reliability.support.Leaks;
import io.changeflow.reliability.support.Prometheus;
import io.changeflow.reliability.support.RawHttp;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.FreePorts;
import io.changeflow.systemtest.harness.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14's findings on deadlines and monitoring, replayed over HTTP against the packaged jar (the shared
 * {@link EdgeCluster}): a store that cannot answer in time never turns a limit into "allow", a statement held
 * past its deadline is a clear 503 and the instance answers again as soon as the database does, the start-up
 * warns when employee IDs cannot be verified, and a separate management port serves the scrape while the
 * application's port serves no actuator at all. The database is made slow the way a real incident makes it:
 * another session holds a table lock.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadlinesReliabilityTest {

    @RegisterExtension
    static final EdgeCluster edge = new EdgeCluster();

    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final byte[] INVALID = "{}".getBytes(StandardCharsets.UTF_8);

    @AfterAll
    static void restoreBaseline() {
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
    }

    /** Outside the sandbox and without a configured directory, start-up says that employee IDs get no access. */
    @Test
    @Order(1)
    void theStartUpWarnsWhenNoDirectoryCanVerifyEmployeeIds() throws Exception {
        var warning = "employee IDs are UNVERIFIED and get no access";
        assertThat(Files.readString(edge.edge().logFile())).as("the production-profile instance's log").contains(warning);
        assertThat(Files.readString(edge.sandbox().logFile())).as("the sandbox reads its demo directory").doesNotContain(warning);
    }

    /**
     * The cluster quota store made unable to answer (its table locked by another session): 20 submissions by one
     * person in flight at once fill the store's bulkhead and pass its deadline, and this instance's own limiter
     * decides every one of them: the quota holds, never "allow". With the store back, the cluster quota decides again.
     */
    @Test
    @Order(2)
    void aClusterQuotaStoreThatCannotAnswerFallsBackToTheLocalLimitNeverToAllow() throws Exception {
        var quota = 3;
        var inFlight = 20;
        var keys = new LinkedHashMap<>(EdgeCluster.baseline());
        keys.put("APPLY_RATE_LIMIT", Integer.toString(quota));
        keys.put("ratelimit.scope", "cluster");
        keys.put("ratelimit.windowSeconds", "3600");
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), keys);
        var degradedBefore = degraded();
        Map<Integer, Integer> locked;
        try (var holder = edge.cluster().dataSource().getConnection()) {
            lock(holder, "rate_limit_bucket");
            try {
                locked = concurrently("deadline-dora-" + UUID.randomUUID().toString().substring(0, 8), inFlight);
            } finally {
                unlock(holder);
            }
        }
        var degraded = degraded() - degradedBefore;
        // the locked phase's store calls, given up on by their callers, still hold the store's bulkhead until the
        // table lock is gone and they finish: the answering phase starts once they drained, not 40 ms later
        Thread.sleep(3_000);
        var unlocked = concurrently("deadline-emil-" + UUID.randomUUID().toString().substring(0, 8), inFlight);
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        Figures.record("security: " + inFlight + " submissions in flight at once by one person, APPLY_RATE_LIMIT=" + quota
                        + ", scope cluster",
                "store locked by another session (HTTP status -> answers): " + locked + ", decided locally (counted): "
                        + degraded + "\nstore answering: " + unlocked);

        assertThat(locked.keySet()).as("answers while the store was locked: " + locked).containsOnly(400, 429);
        assertThat(locked.get(400)).as("let through while the store could not answer: " + locked).isEqualTo(quota);
        assertThat(degraded).as("decisions the local limiter took (changeflow_ratelimit_degraded_total)").isPositive();
        assertThat(unlocked.get(400)).as("the cluster quota with the store answering: " + unlocked).isEqualTo(quota);
        assertThat(unlocked.get(429)).isEqualTo(inFlight - quota);
    }

    /**
     * A statement waiting on a lock another session holds is cancelled at the query timeout (the edge instance's
     * {@code changeflow.persistence.query-timeout} is 5 s): the caller gets 503 UNAVAILABLE with Retry-After and
     * nothing internal, not a held connection, and the same read answers 200 once the lock is gone.
     */
    @Test
    @Order(3)
    void aStatementHeldPastTheQueryTimeoutIs503AndTheInstanceAnswersAgainOnceTheDatabaseDoes() throws Exception {
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        var alice = edge.edge().client("alice");
        var submitted = alice.submit("db-prod-readonly", "svc-deadline-" + UUID.randomUUID().toString().substring(0, 8), "deadlines");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var read = RawHttp.Request.of("GET", "/api/requests/" + id).withHeader("X-Forwarded-User", "alice");
        RawHttp.Response held;
        long heldMillis;
        try (var holder = edge.cluster().dataSource().getConnection()) {
            lock(holder, "operation");
            try {
                var started = System.nanoTime();
                held = RawHttp.exchange(edge.edge().port(), read, TIMEOUT);
                heldMillis = (System.nanoTime() - started) / 1_000_000;
            } finally {
                unlock(holder);
            }
        }
        var again = Poll.until("the read answers again", Duration.ofSeconds(30),
                () -> RawHttp.exchange(edge.edge().port(), read, TIMEOUT), r -> r.status() == 200);
        Figures.record("security: a request read while another session holds a lock on the operation table",
                "answer " + held.status() + " " + code(held) + " after " + heldMillis + " ms (query timeout 5 s), Retry-After "
                        + held.header("Retry-After") + "; after the lock: " + again.status() + " " + json(again).path("data").path("status").asString());

        assertThat(held.status()).as(held.toString()).isEqualTo(503);
        assertThat(code(held)).isEqualTo("UNAVAILABLE");
        assertThat(held.header("Retry-After")).isEqualTo("5");
        assertThat(heldMillis).as("answered at the query timeout, not held until the lock went").isLessThan(TIMEOUT.toMillis());
        assertThat(Leaks.find(held.wholeText(), "GET /api/requests/" + id, false)).isEmpty();
        assertThat(held.wholeText()).doesNotContainIgnoringCase("select").doesNotContain("operation_history");
        assertThat(json(again).path("data").path("operationId").asString()).isEqualTo(id);
    }

    /**
     * The separate management port (docs/operations.md "Prometheus scraping"): the actuator answers there, the scrape
     * and the readiness probe included, and the application's port, the one behind the load balancer and the login
     * proxy, serves no actuator path at all.
     */
    @Test
    @Order(4)
    void aSeparateManagementPortServesTheScrapeAndTheApplicationPortNoActuator() {
        var management = FreePorts.pick();
        var instance = edge.cluster().start("mgmt", s -> s.set("ACCESS_MODE", null)
                .set("changeflow.identity.email-domains", EdgeCluster.ACCEPTED_EMAIL_DOMAIN)
                .set("management.server.port", management)
                .set("management.server.address", "127.0.0.1"));
        try {
            var answers = new TreeMap<String, String>();
            var problems = new ArrayList<String>();
            for (var path : List.of("/actuator/prometheus", "/actuator/health", "/actuator/health/readiness", "/actuator/metrics")) {
                var onApp = RawHttp.exchange(instance.port(), RawHttp.Request.of("GET", path).withHeader("X-Forwarded-User", "otto"),
                        TIMEOUT);
                answers.put("app port, operator " + path, onApp.status() + " " + code(onApp));
                if (onApp.status() != 404) {
                    problems.add("the application's port answers " + path + ": " + onApp.status());
                }
            }
            var scrape = new ApiClient(instance.managementUrl(), null).get("/actuator/prometheus", Map.of("Accept", "text/plain"));
            var readiness = new ApiClient(instance.managementUrl(), null).get("/actuator/health/readiness");
            answers.put("management port /actuator/prometheus", Integer.toString(scrape.status()));
            answers.put("management port /actuator/health/readiness", readiness.status() + " " + readiness.body());
            if (scrape.status() != 200 || !scrape.body().contains("changeflow_")) {
                problems.add("the scrape on the management port: " + scrape.status());
            }
            if (readiness.status() != 200 || !"UP".equals(readiness.json().path("status").asString(""))) {
                problems.add("readiness on the management port: " + readiness);
            }
            // the application itself still answers on its own port
            var me = instance.client("otto").get("/api/me");
            answers.put("app port /api/me", Integer.toString(me.status()));
            if (me.status() != 200) {
                problems.add("/api/me on the application's port: " + me);
            }
            Figures.record("security: a separate management port (management.server.port)", answers + "\n"
                    + "problems: " + problems);
            assertThat(problems).isEmpty();
        } finally {
            instance.stop();
        }
    }

    /** {@code count} invalid submissions by {@code person} at once on the edge instance: HTTP status -> answers. */
    private static Map<Integer, Integer> concurrently(String person, int count) throws Exception {
        var pool = Executors.newFixedThreadPool(count);
        try {
            var calls = new ArrayList<Callable<Integer>>();
            for (int i = 0; i < count; i++) {
                calls.add(() -> RawHttp.exchange(edge.edge().port(), RawHttp.Request.of("POST", "/api/requests")
                        .withHeader("Content-Type", "application/json").withHeader("X-Forwarded-User", person)
                        .withBody(INVALID, RawHttp.Framing.CONTENT_LENGTH), TIMEOUT).status());
            }
            var answers = new TreeMap<Integer, Integer>();
            for (var future : pool.invokeAll(calls, TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                answers.merge(future.get(), 1, Integer::sum);
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private static double degraded() {
        return Prometheus.sum(edge.edge(), "changeflow_ratelimit_degraded_total");
    }

    /** Another session's table lock: every other session's statement on {@code table} waits until {@link #unlock}. */
    private static void lock(Connection holder, String table) throws Exception {
        try (var statement = holder.createStatement()) {
            statement.execute("LOCK TABLES " + table + " WRITE");
        }
    }

    private static void unlock(Connection holder) throws Exception {
        try (var statement = holder.createStatement()) {
            statement.execute("UNLOCK TABLES");
        }
    }
}
