package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Convergence;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import io.changeflow.testsupport.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 34: the packaged app on a database behind a {@link FaultProxy} that holds every packet (a network
 * partition or a hung database host: nothing is reset, nothing answers), with requests in flight (submitted before,
 * GitLab answering 250 ms late so their steps are running), submissions, reads and readiness probes sent throughout.
 * <ul>
 *   <li>every API answer comes within {@link #API_BOUND} (10 s, the sandbox's statement limit of 3 s: socket timeout
 *       5 s, pool wait 2 s), as 503 UNAVAILABLE with {@code Retry-After} (reads and submissions need the
 *       database);</li>
 *   <li>readiness answers 503 within its 2 s deadline for every probe once the partition has lasted a probe interval
 *       (1 s here), and liveness stays 200;</li>
 *   <li>after healing, with no operator acting: readiness is UP again, the submissions refused during the partition
 *       are accepted when the client sends them again (same operationId), and every request converges to VALIDATED,
 *       each delivered once on its own merge request, no approval attempted twice, one row per operationId.</li>
 * </ul>
 * Then connections reset mid-transaction ({@link #connectionsResetMidTransactionAnswer503OrSucceedAndEverythingConvergesOnce})
 * and a slow database ({@link #aSlowDatabaseAnswersEveryRequestWithinTheBoundAndEverythingConvergesAfter}).
 * The partition lasts {@code -Dsystem.partitionSeconds} (CI: {@value #CI_PARTITION_SECONDS} s, long enough for several
 * answers of each kind, readiness DOWN and the steps in flight retried; the size is 60:
 * {@code -Dsystem.partitionSeconds=60}); docs/reliability.md records the runs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabasePartitionSystemTest {

    static final int CI_PARTITION_SECONDS = 20;
    static final Duration PARTITION = Duration.ofSeconds(Integer.getInteger("system.partitionSeconds", CI_PARTITION_SECONDS));
    static final Duration API_BOUND = Duration.ofSeconds(10);
    /** The health checks' deadline (changeflow.health.timeout) plus the time an HTTP answer needs here. */
    static final Duration READINESS_BOUND = Duration.ofSeconds(3);
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    /** changeflow.health.timeout: each check's deadline, and how long an answer is reused after its check ended. */
    static final Duration HEALTH_DEADLINE = Duration.ofSeconds(2);
    static final int BEFORE = 3;
    static final int DURING = 3;
    static final int RESET_REQUESTS = 3;
    static final int RESETS = 5;
    static final int SLOW_REQUESTS = 2;
    /** How long the database is slow (every packet 2 s late each way): {@code -Dsystem.slowSeconds}. */
    static final Duration SLOW = Duration.ofSeconds(Integer.getInteger("system.slowSeconds", 12));
    static final Duration SLOW_PACKET = Duration.ofSeconds(2);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(BEFORE + DURING + RESET_REQUESTS + SLOW_REQUESTS);

    static FaultProxy proxy;
    static AppInstance instance;

    @BeforeAll
    static void anInstanceWhoseDatabaseIsBehindTheProxy() {
        var jdbcUrl = cluster.settings().property("spring.datasource.url");
        proxy = FaultProxy.toServerOf(jdbcUrl);
        instance = cluster.start("a", settings -> settings
                .set("spring.datasource.url", proxy.proxied(jdbcUrl))
                // the sandbox profile's database deadlines (application-sandbox.yml): socket timeout 5 s, pool wait 2 s
                .set("changeflow.persistence.query-timeout", "3s")
                .set("changeflow.persistence.connection-timeout", "2s"));
    }

    @AfterAll
    static void closeTheProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** One answer (or none) seen during the partition. */
    record Seen(String kind, long sentAtMillis, int status, String code, String retryAfter, Duration latency, String failure) {

        static Seen of(String kind, long sentAtMillis, Supplier<ApiResponse> call) {
            var started = System.nanoTime();
            try {
                var response = call.get();
                return new Seen(kind, sentAtMillis, response.status(), response.code(), response.header("Retry-After"),
                        response.latency(), null);
            } catch (RuntimeException e) {
                return new Seen(kind, sentAtMillis, 0, null, null, Duration.ofNanos(System.nanoTime() - started), e.toString());
            }
        }
    }

    @Test
    @Order(1)
    void aPartitionAnswersEveryRequestWithinTheBoundAnd503ReadinessDownAndEverythingConvergesAfter()
            throws Exception {
        var alice = instance.client("alice").withTimeout(Duration.ofSeconds(30));
        var probe = new ApiClient(instance.managementUrl(), null).withTimeout(Duration.ofSeconds(30));
        var sims = cluster.sims();
        sims.faults(Faults.GITLAB, new FaultSettings(250, 0, 0, 0, 0, 0, 0));

        var ids = new ArrayList<String>();
        for (int i = 1; i <= BEFORE; i++) {
            var response = alice.submit(InstanceSettings.plainTargetKey(i), "svc-partition-" + i, "partition test");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }
        var during = new ArrayList<String>();
        for (int i = 1; i <= DURING; i++) {
            during.add(UUID.randomUUID().toString());
        }

        proxy.hold();
        var heldAt = System.nanoTime();
        var seen = new ConcurrentLinkedQueue<Seen>();
        var probes = Executors.newFixedThreadPool(4);
        var until = heldAt + PARTITION.toNanos();
        probes.submit(() -> loop(until, heldAt, seen, "read", n -> alice.get("/api/requests/" + ids.get(n % BEFORE))));
        probes.submit(() -> loop(until, heldAt, seen, "submit", n -> {
            var k = n % DURING;
            return alice.submit(during.get(k), InstanceSettings.plainTargetKey(BEFORE + 1 + k), "svc-partition-" + (BEFORE + 1 + k),
                    "partition test");
        }));
        probes.submit(() -> loop(until, heldAt, seen, "readiness", n -> probe.get("/actuator/health/readiness")));
        probes.submit(() -> loop(until, heldAt, seen, "liveness", n -> probe.get("/actuator/health/liveness")));
        probes.shutdown();
        assertThat(probes.awaitTermination(PARTITION.toSeconds() + 60, TimeUnit.SECONDS)).isTrue();
        proxy.pass();
        var healedAt = System.nanoTime();

        var answers = List.copyOf(seen);
        var api = answers.stream().filter(s -> s.kind().equals("read") || s.kind().equals("submit")).toList();
        var readiness = answers.stream().filter(s -> s.kind().equals("readiness")).toList();
        var liveness = answers.stream().filter(s -> s.kind().equals("liveness")).toList();
        var latencies = new TreeMap<String, List<Duration>>();
        answers.forEach(s -> latencies.computeIfAbsent(s.kind(), k -> new ArrayList<>()).add(s.latency()));

        // after healing: back by itself
        Poll.until("readiness UP again", Duration.ofSeconds(30), Duration.ofMillis(200),
                () -> probe.get("/actuator/health/readiness").status(), status -> status == 200);
        var readyAgain = Duration.ofNanos(System.nanoTime() - healedAt);
        for (int k = 0; k < DURING; k++) {
            var id = during.get(k);
            var target = InstanceSettings.plainTargetKey(BEFORE + 1 + k);
            var subject = "svc-partition-" + (BEFORE + 1 + k);
            var accepted = Poll.until("the submission refused during the partition sent again", Duration.ofSeconds(30),
                    Duration.ofMillis(500), () -> alice.submit(id, target, subject, "partition test"),
                    r -> r.status() == 202 || r.status() == 200);
            assertThat(accepted.data().path("operationId").asString()).isEqualTo(id);
            ids.add(id);
        }
        var converged = Convergence.awaitAll(instance.client("otto"), ids, Duration.ofSeconds(180));
        var allDone = Duration.ofNanos(System.nanoTime() - healedAt);
        sims.clearFaults();

        Figures.record("Database partition (proxy holds every packet) for " + PARTITION.toSeconds() + " s, "
                        + BEFORE + " requests in flight, " + DURING + " submitted during it",
                latencies.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().size() + " answers, "
                                + Figures.latencies(e.getValue())).reduce((a, b) -> a + "\n" + b).orElse("")
                        + "\nstatuses: " + statuses(answers)
                        + "\nreadiness UP " + readyAgain.toMillis() + " ms after healing; all requests converged "
                        + allDone.toMillis() + " ms after healing: " + new TreeMap<>(Invariants.outcomeTable(converged)));

        assertThat(api.stream().filter(s -> s.kind().equals("read"))).as("reads answered during the partition").hasSizeGreaterThan(3);
        assertThat(api.stream().filter(s -> s.kind().equals("submit"))).as("submissions answered during the partition")
                .hasSizeGreaterThan(3);
        assertThat(api).allSatisfy(s -> {
            assertThat(s.failure()).as(s.toString()).isNull();
            assertThat(s.latency()).as(s.toString()).isLessThanOrEqualTo(API_BOUND);
            assertThat(s.status()).as(s.toString()).isEqualTo(503);
            assertThat(s.code()).as(s.toString()).isEqualTo("UNAVAILABLE");
            assertThat(s.retryAfter()).as(s.toString()).isNotBlank();
        });
        assertThat(readiness).allSatisfy(s -> {
            assertThat(s.failure()).as(s.toString()).isNull();
            assertThat(s.latency()).as(s.toString()).isLessThanOrEqualTo(READINESS_BOUND);
        });
        // An answer is reused for the deadline after its check ended (BoundedHealthIndicator): a probe sent within the
        // deadline of the partition's start may get the UP of a check that ended just before it; every later one is
        // DOWN, so with a probe period of at least the deadline (docs/operations.md: 5 s) readiness is DOWN within the
        // deadline plus one period. (This test probes every second to see more answers; it asserted DOWN from 1 s on,
        // which the reuse never promised: the CI run of 2026-12-07 05:15 got the reused UP at 1,032 ms.)
        // (plus 250 ms for a check whose answer was already past the proxy when it began holding)
        assertThat(readiness.stream().filter(s -> s.sentAtMillis() >= HEALTH_DEADLINE.toMillis() + 250))
                .as("readiness DOWN for every probe sent one health deadline after the partition began").isNotEmpty()
                .allSatisfy(s -> assertThat(s.status()).as(s.toString()).isEqualTo(503));
        assertThat(liveness).isNotEmpty().allSatisfy(s -> assertThat(s.status()).as(s.toString()).isEqualTo(200));

        assertNothingLostOrDoubled(converged, BEFORE + DURING);
    }

    /**
     * Connections reset mid-transaction (a database restart, a firewall's reset) every 2 s for {@link #RESETS} times
     * while submissions and reads are sent and steps run: every answer comes within the bound, as 2xx or 503
     * UNAVAILABLE with {@code Retry-After} (never a 500), and afterwards every request converges, nothing lost or
     * doubled (a submission refused is sent again with its operationId, as a client does).
     */
    @Test
    @Order(2)
    void connectionsResetMidTransactionAnswer503OrSucceedAndEverythingConvergesOnce() throws Exception {
        var alice = instance.client("alice").withTimeout(Duration.ofSeconds(30));
        var sims = cluster.sims();
        sims.faults(Faults.GITLAB, new FaultSettings(250, 0, 0, 0, 0, 0, 0));
        var first = BEFORE + DURING + 1;
        var sent = new ArrayList<String>();
        for (int k = 0; k < RESET_REQUESTS; k++) {
            sent.add(UUID.randomUUID().toString());
        }
        var seen = new ConcurrentLinkedQueue<Seen>();
        var started = System.nanoTime();
        var traffic = Executors.newFixedThreadPool(2);
        var until = started + Duration.ofSeconds(2L * RESETS).toNanos();
        traffic.submit(() -> loop(until, started, seen, "submit", n -> {
            var k = n % RESET_REQUESTS;
            return alice.submit(sent.get(k), InstanceSettings.plainTargetKey(first + k), "svc-reset-" + k, "reset test");
        }));
        traffic.submit(() -> loop(until, started, seen, "read", n -> alice.get("/api/requests/" + sent.get(n % RESET_REQUESTS))));
        traffic.shutdown();
        for (int r = 0; r < RESETS; r++) {
            Thread.sleep(2_000);
            proxy.resetAll();
        }
        assertThat(traffic.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        sendAgainUntilAccepted(alice, sent, first, "reset", Duration.ofSeconds(30));
        var converged = Convergence.awaitAll(instance.client("otto"), sent, Duration.ofSeconds(180));
        sims.clearFaults();
        var answers = List.copyOf(seen);
        Figures.record("Database connections reset every 2 s, " + RESETS + " times, " + RESET_REQUESTS + " requests",
                "statuses: " + statuses(answers) + "; converged: " + new TreeMap<>(Invariants.outcomeTable(converged)));

        assertThat(answers).as("answers during the resets").isNotEmpty().allSatisfy(DatabasePartitionSystemTest::inTimeAndNever500);
        assertNothingLostOrDoubled(converged, BEFORE + DURING + RESET_REQUESTS);
    }

    /**
     * A slow database (every packet {@link #SLOW_PACKET} late each way, so a round trip takes about 4 s: each within
     * the socket timeout of 5 s, their sum not) while submissions and reads are sent: every answer comes within the
     * bound, because a request's round trips together stay within its database budget
     * ({@code changeflow.persistence.request-budget}, the socket timeout by default) plus one pool wait; an answer that
     * needs the database and cannot have it is 503 UNAVAILABLE with {@code Retry-After}, never a 500. Once the
     * database is fast again everything converges, nothing lost or doubled.
     */
    @Test
    @Order(3)
    void aSlowDatabaseAnswersEveryRequestWithinTheBoundAndEverythingConvergesAfter() throws Exception {
        var alice = instance.client("alice").withTimeout(Duration.ofSeconds(60));
        var sims = cluster.sims();
        sims.faults(Faults.GITLAB, new FaultSettings(250, 0, 0, 0, 0, 0, 0));
        var first = BEFORE + DURING + RESET_REQUESTS + 1;
        var sent = new ArrayList<String>();
        for (int k = 0; k < SLOW_REQUESTS; k++) {
            sent.add(UUID.randomUUID().toString());
        }
        var seen = new ConcurrentLinkedQueue<Seen>();
        proxy.delay(SLOW_PACKET);
        var started = System.nanoTime();
        var traffic = Executors.newFixedThreadPool(2);
        var until = started + SLOW.toNanos();
        traffic.submit(() -> loop(until, started, seen, "submit", n -> {
            var k = n % SLOW_REQUESTS;
            return alice.submit(sent.get(k), InstanceSettings.plainTargetKey(first + k), "svc-slow-" + k, "slow test");
        }));
        traffic.submit(() -> loop(until, started, seen, "read", n -> alice.get("/api/requests/" + sent.get(n % SLOW_REQUESTS))));
        traffic.shutdown();
        assertThat(traffic.awaitTermination(SLOW.toSeconds() + 120, TimeUnit.SECONDS)).isTrue();
        proxy.pass();

        sendAgainUntilAccepted(alice, sent, first, "slow", Duration.ofSeconds(60));
        var converged = Convergence.awaitAll(instance.client("otto"), sent, Duration.ofSeconds(180));
        sims.clearFaults();
        var answers = List.copyOf(seen);
        var latencies = new TreeMap<String, List<Duration>>();
        answers.forEach(a -> latencies.computeIfAbsent(a.kind(), k -> new ArrayList<>()).add(a.latency()));
        Figures.record("Slow database (every packet " + SLOW_PACKET.toMillis() + " ms late each way) for "
                        + SLOW.toSeconds() + " s, " + SLOW_REQUESTS + " requests",
                latencies.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().size() + " answers, "
                                + Figures.latencies(e.getValue())).reduce((a, b) -> a + "\n" + b).orElse("")
                        + "\nstatuses: " + statuses(answers) + "; converged: " + new TreeMap<>(Invariants.outcomeTable(converged)));

        assertThat(answers).as("answers while the database was slow").hasSizeGreaterThanOrEqualTo(4)
                .allSatisfy(DatabasePartitionSystemTest::inTimeAndNever500);
        assertNothingLostOrDoubled(converged, BEFORE + DURING + RESET_REQUESTS + SLOW_REQUESTS);
    }

    /**
     * Every request VALIDATED on its own merge request, no approval attempted twice, one row per operationId
     * ({@code operations} in the schema so far).
     */
    private static void assertNothingLostOrDoubled(List<RequestView> converged, int operations) {
        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        var problems = new ArrayList<String>();
        converged.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(cluster.sims(), v)));
        problems.addAll(Invariants.repeatedApprovalAttempts(cluster.sims().gitlabCalls()));
        assertThat(problems).isEmpty();
        assertThat(Sql.number(cluster.dataSource(), "select count(*) from operation")).as("one row per operationId")
                .isEqualTo((long) operations);
    }

    /** Within the bound, as 2xx, 404 (a request not accepted yet) or 503 UNAVAILABLE with {@code Retry-After}. */
    private static void inTimeAndNever500(Seen s) {
        assertThat(s.failure()).as(s.toString()).isNull();
        assertThat(s.latency()).as(s.toString()).isLessThanOrEqualTo(API_BOUND);
        assertThat(s.status()).as(s.toString()).isIn(200, 202, 404, 503);
        if (s.status() == 503) {
            assertThat(s.code()).as(s.toString()).isEqualTo("UNAVAILABLE");
            assertThat(s.retryAfter()).as(s.toString()).isNotBlank();
        }
    }

    /** Sends each submission of {@code sent} again with its operationId, as a client does, until it is accepted. */
    private static void sendAgainUntilAccepted(ApiClient alice, List<String> sent, int firstTarget, String what,
            Duration patience) {
        for (int k = 0; k < sent.size(); k++) {
            var id = sent.get(k);
            var target = InstanceSettings.plainTargetKey(firstTarget + k);
            var subject = "svc-" + what + "-" + k;
            Poll.until("submission " + k + " sent again after the " + what + " run", patience, Duration.ofMillis(500),
                    () -> alice.submit(id, target, subject, what + " test"), r -> r.status() == 202 || r.status() == 200);
        }
    }

    private interface Call {
        ApiResponse send(int n);
    }

    /** Sends {@code call} once per probe interval until {@code untilNanos}, recording every answer. */
    private static void loop(long untilNanos, long heldAt, ConcurrentLinkedQueue<Seen> seen, String kind, Call call) {
        for (int n = 0; System.nanoTime() < untilNanos; n++) {
            var sentAt = Duration.ofNanos(System.nanoTime() - heldAt).toMillis();
            var index = n;
            seen.add(Seen.of(kind, sentAt, () -> call.send(index)));
            try {
                Thread.sleep(PROBE_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Map<String, Long> statuses(List<Seen> answers) {
        var counts = new TreeMap<String, Long>();
        answers.forEach(s -> counts.merge(s.kind() + " " + (s.status() == 0 ? "no answer" : s.status()), 1L, Long::sum));
        return counts;
    }
}
