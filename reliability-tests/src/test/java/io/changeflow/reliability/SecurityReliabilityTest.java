package io.changeflow.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.EdgeCluster;
import io.changeflow.reliability.support.Leaks;
import io.changeflow.reliability.support.RawHttp;
import io.changeflow.reliability.support.Webhooks;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.Sql;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * Security: every operations and callback endpoint tried by callers who must be refused, against the
 * packaged application (the shared {@link EdgeCluster}), as docs/api.md specifies.
 *
 * <ul>
 *   <li>Operations API (every path, plus an unknown {@code /ops/...} path): without identity 401
 *       UNAUTHENTICATED (also with a forged {@code __authenticatedOperator}, a forged {@code X-Forwarded-For},
 *       the production instance's ignored demo cookie, or {@code X-Forwarded-User} sent twice); as a person
 *       without permission, or an employee ID the directory does not know, 403 ACCESS_DENIED "Access denied"
 *       (also with {@code __authenticatedOperator=otto} in the query or the form body); from a peer that is
 *       not a trusted proxy, {@code X-Forwarded-User: otto} (with or without {@code X-Forwarded-For} naming a
 *       trusted block) is ignored: 401. No refused attempt leaves an audit entry or moves the request. An
 *       operator's write with {@code __authenticatedOperator=mallory} is audited as the operator, "mallory"
 *       nowhere.</li>
 *   <li>Callbacks: unsigned (identity headers do not help), signed by a wrong secret or by the other
 *       source's, a changed body, a timestamp 6 minutes off either way, a malformed signature header, a
 *       {@code webhook-id} sent twice or swapped: 401 INVALID_SIGNATURE and nothing processed (the request
 *       still waits for its approver, no delivery recorded). A validly signed delivery 4 minutes old is
 *       processed once; its exact replay and a re-signed copy answer DUPLICATE and decide nothing again.</li>
 *   <li>Rate limiting and {@code X-Forwarded-For}: with a limit of 3, a forged leftmost hop does not give an
 *       anonymous caller a new quota (the hop the trusted proxy appended decides), a person is limited
 *       whatever {@code X-Forwarded-For} says, and from an untrusted peer the header is ignored.</li>
 *   <li>Sandbox-only endpoints: {@code /sandbox/faults} and the approver inbox refuse callers without the
 *       permission (demo cookie of a requester or of an account the directory does not list: 403; no cookie, or a forged identity header from an
 *       untrusted peer: 401).</li>
 * </ul>
 * Every refusal is checked for leaked internals as well.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecurityReliabilityTest {

    @RegisterExtension
    static final EdgeCluster edge = new EdgeCluster();

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String RESERVED = "__authenticatedOperator";

    /** An operation parked at "waiting for the approver" (manual approval simulator). */
    static String parked;

    record Endpoint(String method, String path) {
        String target(String query) {
            return query.isEmpty() ? path : path + (path.contains("?") ? "&" : "?") + query;
        }
    }

    @BeforeAll
    static void parkARequest() {
        var cluster = edge.cluster();
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        var response = edge.edge().client("alice").submit("db-prod-readonly", "svc-sec-" + UUID.randomUUID(), "security");
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        parked = response.data().path("operationId").asString();
        Poll.untilTrue("the request waits for the approver", Duration.ofSeconds(60),
                () -> "APPROVAL_SENT".equals(edge.edge().client("alice").request(parked).status())
                        && cluster.sims().approval().byOperationId(parked).isPresent());
    }

    @AfterAll
    static void restoreBaseline() {
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
    }

    static List<Endpoint> opsEndpoints() {
        return List.of(
                new Endpoint("GET", "/ops/operations"),
                new Endpoint("GET", "/ops/operations?status=MERGING&stuckForSeconds=0"),
                new Endpoint("GET", "/ops/operations/" + parked),
                new Endpoint("POST", "/ops/operations/" + parked + "/retrigger"),
                new Endpoint("POST", "/ops/operations/" + parked + "/close"),
                new Endpoint("POST", "/ops/batch-rounds"),
                new Endpoint("GET", "/ops/batches"),
                new Endpoint("POST", "/ops/batches/1/settle"),
                new Endpoint("POST", "/ops/reconciliation-runs"),
                new Endpoint("GET", "/ops/config"),
                new Endpoint("GET", "/ops/stats"),
                new Endpoint("GET", "/ops/no-such-thing"));
    }

    @Test
    @Order(1)
    void everyOperationsEndpointRefusesCallersWithoutIdentityOrPermission() {
        var ds = edge.cluster().dataSource();
        var auditBefore = Sql.number(ds, "select coalesce(max(id), 0) from audit_log");
        var problems = new ArrayList<String>();
        var answers = new TreeMap<String, Integer>();
        var attempts = 0;
        for (var endpoint : opsEndpoints()) {
            for (var attempt : refusedAttempts()) {
                var to = attempt.sandbox() ? edge.sandbox() : edge.edge();
                var request = RawHttp.Request.of(endpoint.method(), endpoint.target(attempt.query()));
                for (var h : attempt.headers()) {
                    request = request.withHeader(h.name(), h.value());
                }
                if (attempt.formBody() != null && !endpoint.method().equals("GET")) {
                    request = request.withHeader("Content-Type", "application/x-www-form-urlencoded")
                            .withBody(attempt.formBody().getBytes(StandardCharsets.UTF_8), RawHttp.Framing.CONTENT_LENGTH);
                }
                var response = RawHttp.exchange(to.port(), request, TIMEOUT);
                attempts++;
                var code = code(response);
                answers.merge(attempt.name() + " -> " + response.status() + " " + code, 1, Integer::sum);
                if (response.status() != attempt.status() || !attempt.code().equals(code)) {
                    problems.add(endpoint.method() + " " + endpoint.path() + " " + attempt.name() + ": expected "
                            + attempt.status() + " " + attempt.code() + ", got " + response);
                }
                if (response.status() == 403 && !"Access denied".equals(json(response).path("message").asString(""))) {
                    problems.add(endpoint.method() + " " + endpoint.path() + " " + attempt.name() + ": 403 message "
                            + json(response).path("message"));
                }
                Leaks.find(response.wholeText(), request.target() + request.headers(), false)
                        .forEach(leak -> problems.add(endpoint.path() + " " + attempt.name() + " leaks " + leak));
            }
            // the positive control: the operator gets past authorization (on another, unknown request: nothing moves)
            var operator = RawHttp.exchange(edge.edge().port(), RawHttp.Request.of(endpoint.method(),
                    endpoint.path().replace(parked, UUID.randomUUID().toString())).withHeader("X-Forwarded-User", "otto"), TIMEOUT);
            attempts++;
            if (operator.status() == 401 || operator.status() == 403 || operator.status() >= 500 || !operator.answered()) {
                problems.add(endpoint.method() + " " + endpoint.path() + " as the operator: " + operator);
            }
        }
        // nothing the refused callers did left a trace (the operator's own writes above are audited as otto)
        var foreign = Sql.rows(ds, "select actor, action, subject, parameters from audit_log where id > ? and actor <> 'otto'",
                auditBefore);
        if (!foreign.isEmpty()) {
            problems.add(foreign.size() + " audit entries by someone other than the operator: " + foreign);
        }
        var view = edge.edge().client("alice").request(parked);
        if (!"APPROVAL_SENT".equals(view.status()) || decisions(parked) != 0) {
            problems.add("a refused caller moved the parked request: " + view);
        }
        Figures.record("security: " + opsEndpoints().size() + " operations endpoints x " + refusedAttempts().size()
                        + " refused callers (" + attempts + " requests incl. the operator's controls)",
                Figures.table(answers) + "problems: " + problems.size() + " " + problems);
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(2)
    void aForgedOperatorParameterIsNeverRecordedAsTheOperator() {
        var ds = edge.cluster().dataSource();
        var before = Sql.number(ds, "select coalesce(max(id), 0) from audit_log");
        var otto = edge.edge().client("otto");
        var problems = new ArrayList<String>();
        var writes = List.of(
                new Endpoint("POST", "/ops/reconciliation-runs?" + RESERVED + "=mallory"),
                new Endpoint("POST", "/ops/operations/" + parked + "/retrigger?" + RESERVED + "=mallory&" + RESERVED + "=eve"),
                new Endpoint("POST", "/ops/batch-rounds?partition=global&" + RESERVED + "=mallory"));
        for (var write : writes) {
            var response = otto.post(write.path(), null);
            if (response.status() >= 500 || response.status() == 401 || response.status() == 403) {
                problems.add(write.path() + " as otto: " + response);
            }
        }
        var form = RawHttp.exchange(edge.edge().port(), RawHttp.Request.of("POST", "/ops/reconciliation-runs")
                .withHeader("X-Forwarded-User", "otto").withHeader("Content-Type", "application/x-www-form-urlencoded")
                .withBody((RESERVED + "=mallory").getBytes(StandardCharsets.UTF_8), RawHttp.Framing.CONTENT_LENGTH), TIMEOUT);
        if (form.status() != 200) {
            problems.add("form-encoded forged operator: " + form);
        }
        var entries = Sql.rows(ds, "select actor, action, subject, parameters from audit_log where id > ?", before);
        if (entries.isEmpty()) {
            problems.add("no audit entries for the operator's writes");
        }
        for (var entry : entries) {
            var text = entry.toString().toLowerCase(java.util.Locale.ROOT);
            if (!"otto".equals(entry.get("actor")) || text.contains("mallory") || text.contains("=eve")) {
                problems.add("audit entry " + entry);
            }
        }
        var view = otto.operation(parked);
        if (view.toString().contains("mallory")) {
            problems.add("GET /ops/operations/" + parked + " shows mallory: " + view.path("audit"));
        }
        Figures.record("security: forged " + RESERVED + " on operator writes",
                entries.size() + " audit entries written, actors " + entries.stream().map(e -> e.get("actor")).distinct().toList()
                        + "; problems: " + problems);
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(3)
    void callbacksWithoutAValidFreshSignatureAreRefusedAndProcessNothingAndReplaysDecideNothingAgain() {
        var sims = edge.cluster().sims();
        var ds = edge.cluster().dataSource();
        var approvalSecret = sims.approvalSecret();
        var deploySecret = sims.deploySecret();
        var ext = sims.approval().byOperationId(parked).orElseThrow().form().ext();
        var decision = new LinkedHashMap<String, Object>();
        decision.put("requestId", "rq-sec-" + UUID.randomUUID());
        decision.put("operationId", parked);
        decision.put("result", "REJECTED");
        decision.put("ext", ext);
        var approval = ApiClient.JSON.writeValueAsBytes(decision);
        var deploy = ApiClient.JSON.writeValueAsBytes(Map.of("projectId", "platform/access-config", "mrIid", 1,
                "status", "success", "operationIds", List.of(parked)));
        var deliveriesBefore = Sql.number(ds, "select count(*) from callback_delivery");
        var problems = new ArrayList<String>();
        var answers = new TreeMap<String, Integer>();
        var now = Instant.now().getEpochSecond();
        record Forged(String name, String path, byte[] body, List<RawHttp.Header> headers) {}
        var forged = new ArrayList<Forged>();
        for (var source : List.of("approval", "deploy")) {
            var path = "/callbacks/" + source;
            var body = source.equals("approval") ? approval : deploy;
            var own = source.equals("approval") ? approvalSecret : deploySecret;
            var other = source.equals("approval") ? deploySecret : approvalSecret;
            var id = Webhooks.newId();
            forged.add(new Forged("unsigned", path, body, List.of(h("Content-Type", "application/json"))));
            forged.add(new Forged("unsigned, operator identity", path, body, List.of(h("Content-Type", "application/json"),
                    h("X-Forwarded-User", "otto"), h("X-Forwarded-For", "127.0.0.1"))));
            forged.add(new Forged("wrong secret", path, body, signed(Webhooks.randomSecret(), id, now, body)));
            forged.add(new Forged("other source's secret", path, body, signed(other, id, now, body)));
            var tampered = new String(body, StandardCharsets.UTF_8).replace("REJECTED", "APPROVED").replace("success", "SUCCESS")
                    .getBytes(StandardCharsets.UTF_8);
            forged.add(new Forged("changed body", path, tampered, signed(own, id, now, body)));
            forged.add(new Forged("timestamp 6 min old", path, body, signed(own, id, now - 360, body)));
            forged.add(new Forged("timestamp 6 min ahead", path, body, signed(own, id, now + 360, body)));
            forged.add(new Forged("signature of another webhook-id", path, body,
                    swap(signed(own, id, now, body), "webhook-id", Webhooks.newId())));
            forged.add(new Forged("signature of another timestamp", path, body,
                    swap(signed(own, id, now, body), "webhook-timestamp", Long.toString(now - 1))));
            for (var malformed : List.of("", "v1,", "v1", "v2," + signature(own, id, now, body).substring(3),
                    "v1,AAAA", "v1," + "A".repeat(5000), "v1a," + signature(own, id, now, body).substring(3))) {
                forged.add(new Forged("malformed signature '" + (malformed.length() > 20 ? malformed.substring(0, 20) + "..." : malformed)
                        + "'", path, body, swap(signed(own, id, now, body), "webhook-signature", malformed)));
            }
            var twice = new ArrayList<>(signed(own, id, now, body));
            twice.add(h("webhook-id", id));
            forged.add(new Forged("webhook-id sent twice", path, body, twice));
            var twoTimestamps = new ArrayList<>(signed(own, id, now, body));
            twoTimestamps.add(h("webhook-timestamp", Long.toString(now)));
            forged.add(new Forged("webhook-timestamp sent twice", path, body, twoTimestamps));
            forged.add(new Forged("non-numeric timestamp", path, body, swap(signed(own, id, now, body), "webhook-timestamp", "now")));
        }
        for (var f : forged) {
            var request = RawHttp.Request.of("POST", f.path()).withBody(f.body(), RawHttp.Framing.CONTENT_LENGTH);
            for (var header : f.headers()) {
                request = request.withHeader(header.name(), header.value());
            }
            var response = RawHttp.exchange(edge.edge().port(), request, TIMEOUT);
            var code = code(response);
            answers.merge(f.name() + " -> " + response.status() + " " + code, 1, Integer::sum);
            if (response.status() != 401 || !"INVALID_SIGNATURE".equals(code)) {
                problems.add(f.path() + " " + f.name() + ": expected 401 INVALID_SIGNATURE, got " + response);
            }
            Leaks.find(response.wholeText(), new String(f.body(), StandardCharsets.UTF_8) + f.headers(), false)
                    .forEach(leak -> problems.add(f.path() + " " + f.name() + " leaks " + leak));
        }
        var alice = edge.edge().client("alice");
        if (!"APPROVAL_SENT".equals(alice.request(parked).status()) || decisions(parked) != 0) {
            problems.add("a refused callback moved the request: " + alice.request(parked));
        }
        if (Sql.number(ds, "select count(*) from callback_delivery") != deliveriesBefore) {
            problems.add("a refused callback was recorded as a delivery");
        }
        // the genuine delivery, 4 minutes old (inside the tolerance), is processed once; replays decide nothing
        var id = Webhooks.newId();
        var genuine = signed(approvalSecret, id, now - 240, approval);
        var first = post("/callbacks/approval", approval, genuine);
        var replay = post("/callbacks/approval", approval, genuine);
        var resigned = post("/callbacks/approval", approval, signed(approvalSecret, Webhooks.newId(), now, approval));
        var staleReplay = post("/callbacks/approval", approval, signed(approvalSecret, id, now - 360, approval));
        answers.merge("genuine 4 min old -> " + first.status() + " " + code(first), 1, Integer::sum);
        answers.merge("exact replay -> " + replay.status() + " " + code(replay), 1, Integer::sum);
        answers.merge("re-signed copy -> " + resigned.status() + " " + code(resigned), 1, Integer::sum);
        answers.merge("replay re-dated 6 min old -> " + staleReplay.status() + " " + code(staleReplay), 1, Integer::sum);
        if (first.status() != 200 || !"PROCESSED".equals(code(first))) {
            problems.add("the genuine delivery: " + first);
        }
        for (var again : List.of(replay, resigned)) {
            if (again.status() != 200 || !"DUPLICATE".equals(code(again))) {
                problems.add("a replay: expected 200 DUPLICATE, got " + again);
            }
        }
        if (staleReplay.status() != 401) {
            problems.add("a replay re-dated outside the tolerance: " + staleReplay);
        }
        if (decisions(parked) != 1) {
            problems.add(decisions(parked) + " decisions recorded for " + parked + ", expected 1");
        }
        var deployId = Webhooks.newId();
        var deployHeaders = signed(deploySecret, deployId, now, deploy);
        var deployFirst = post("/callbacks/deploy", deploy, deployHeaders);
        var deployReplay = post("/callbacks/deploy", deploy, deployHeaders);
        answers.merge("deploy genuine -> " + deployFirst.status() + " " + code(deployFirst), 1, Integer::sum);
        answers.merge("deploy exact replay -> " + deployReplay.status() + " " + code(deployReplay), 1, Integer::sum);
        if (deployReplay.status() != 200 || !"DUPLICATE".equals(code(deployReplay))
                || json(deployReplay).path("data").path("advanced").asInt(-1) != 0) {
            problems.add("deploy replay: expected 200 DUPLICATE advanced 0, got " + deployReplay);
        }
        Figures.record("security: " + forged.size() + " forged callbacks, replays", Figures.table(answers)
                + "problems: " + problems.size() + " " + problems);
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(4)
    void aForgedForwardedForNeverBuysANewRateLimitQuota() {
        var limited = new LinkedHashMap<>(EdgeCluster.baseline());
        limited.put("APPLY_RATE_LIMIT", "3");
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), limited);
        edge.sandbox().writeDynamicConfig(limited);
        Poll.untilTrue("the sandbox instance applies the limit", Duration.ofSeconds(20), () -> json(RawHttp.exchange(
                edge.sandbox().port(), RawHttp.Request.of("GET", "/ops/config").withHeader("Cookie", "cf_demo_user=otto"),
                TIMEOUT)).toString().contains("\"raw\":\"3\""));
        var problems = new ArrayList<String>();
        var figures = new StringBuilder();
        var random = new java.util.Random(7);
        var invalid = "{}".getBytes(StandardCharsets.UTF_8);
        // anonymous behind the trusted proxy: a forged leftmost hop, the proxy's appended real hop decides
        var anonymous = new ArrayList<Integer>();
        for (int i = 0; i < 6; i++) {
            anonymous.add(submit(edge.edge(), List.of(h("X-Forwarded-For", randomIp(random) + ", 203.0.113.7")), invalid).status());
        }
        expect(problems, "anonymous, forged leftmost X-Forwarded-For", anonymous, List.of(401, 401, 401, 429, 429, 429));
        var otherClient = submit(edge.edge(), List.of(h("X-Forwarded-For", "203.0.113.8")), invalid).status();
        expect(problems, "another real client (control)", List.of(otherClient), List.of(401));
        // a person: limited whatever X-Forwarded-For says
        var person = new ArrayList<Integer>();
        for (int i = 0; i < 6; i++) {
            person.add(submit(edge.edge(), List.of(h("X-Forwarded-User", "bob"), h("X-Forwarded-For", randomIp(random))), invalid).status());
        }
        expect(problems, "bob with a new X-Forwarded-For each time", person, List.of(400, 400, 400, 429, 429, 429));
        // an untrusted peer: X-Forwarded-For is not read at all
        var untrusted = new ArrayList<Integer>();
        for (int i = 0; i < 6; i++) {
            untrusted.add(submit(edge.sandbox(), List.of(h("X-Forwarded-For", randomIp(random)),
                    h("X-Forwarded-User", "user" + i)), invalid).status());
        }
        expect(problems, "untrusted peer with a new X-Forwarded-For and X-Forwarded-User each time", untrusted,
                List.of(401, 401, 401, 429, 429, 429));
        figures.append("anonymous, forged leftmost hop: ").append(anonymous).append('\n')
                .append("another real client: ").append(otherClient).append('\n')
                .append("bob, new X-Forwarded-For each time: ").append(person).append('\n')
                .append("untrusted peer, new X-Forwarded-For and identity each time: ").append(untrusted).append('\n');
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        edge.sandbox().writeDynamicConfig(EdgeCluster.baseline());
        Figures.record("security: X-Forwarded-For and rate limiting (APPLY_RATE_LIMIT=3)", figures + "problems: " + problems);
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(5)
    void sandboxOperatorAndApproverEndpointsRefuseCallersWithoutThePermission() {
        var problems = new ArrayList<String>();
        var answers = new TreeMap<String, Integer>();
        var endpoints = List.of(new Endpoint("GET", "/sandbox/faults"), new Endpoint("PUT", "/sandbox/faults/gitlab"),
                new Endpoint("GET", "/sim/approval/inbox"), new Endpoint("POST", "/sim/approval/inbox/1/decision"),
                new Endpoint("GET", "/ops/config"), new Endpoint("POST", "/ops/reconciliation-runs"));
        record Caller(String name, List<RawHttp.Header> headers, int status, String code) {}
        var callers = List.of(
                new Caller("nobody", List.of(), 401, "UNAUTHENTICATED"),
                new Caller("forged X-Forwarded-User otto from an untrusted peer", List.of(h("X-Forwarded-User", "otto"),
                        h("X-Forwarded-For", "10.1.2.3")), 401, "UNAUTHENTICATED"),
                new Caller("forged X-Forwarded-Email of otto", List.of(h("X-Forwarded-Email", "otto@corp.example")), 401, "UNAUTHENTICATED"),
                new Caller("requester alice (demo cookie)", List.of(h("Cookie", "cf_demo_user=alice")), 403, "ACCESS_DENIED"),
                // an account name is a readable identity even when the directory does not list it: 403, not 401
                new Caller("unknown demo user", List.of(h("Cookie", "cf_demo_user=mallory")), 403, "ACCESS_DENIED"));
        for (var endpoint : endpoints) {
            for (var caller : callers) {
                var request = RawHttp.Request.of(endpoint.method(), endpoint.path())
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"decision\":\"APPROVE\"}".getBytes(StandardCharsets.UTF_8), RawHttp.Framing.CONTENT_LENGTH);
                for (var header : caller.headers()) {
                    request = request.withHeader(header.name(), header.value());
                }
                var response = RawHttp.exchange(edge.sandbox().port(), request, TIMEOUT);
                var code = code(response);
                answers.merge(caller.name() + " -> " + response.status() + " " + code, 1, Integer::sum);
                if (response.status() != caller.status() || !caller.code().equals(code)) {
                    problems.add(endpoint.method() + " " + endpoint.path() + " " + caller.name() + ": expected "
                            + caller.status() + " " + caller.code() + ", got " + response);
                }
            }
        }
        var amy = RawHttp.exchange(edge.sandbox().port(), RawHttp.Request.of("GET", "/sim/approval/inbox")
                .withHeader("Cookie", "cf_demo_user=amy"), TIMEOUT);
        if (amy.status() != 200) {
            problems.add("the approver's inbox (control): " + amy);
        }
        // the production profile has no demo sign-in: the cookie identifies nobody there
        var cookieOnEdge = RawHttp.exchange(edge.edge().port(), RawHttp.Request.of("GET", "/ops/config")
                .withHeader("Cookie", "cf_demo_user=otto"), TIMEOUT);
        if (cookieOnEdge.status() != 401) {
            problems.add("demo cookie on the production profile: " + cookieOnEdge);
        }
        Figures.record("security: sandbox-only endpoints x callers", Figures.table(answers) + "problems: " + problems);
        assertThat(problems).isEmpty();
    }

    /** One refused caller of the operations API: headers, query, form body, where, and the answer it must get. */
    record Attempt(String name, boolean sandbox, List<RawHttp.Header> headers, String query, String formBody, int status,
                   String code) {}

    static List<Attempt> refusedAttempts() {
        var none = List.<RawHttp.Header>of();
        return List.of(
                new Attempt("no identity", false, none, "", null, 401, "UNAUTHENTICATED"),
                new Attempt("no identity, forged operator parameter", false, none, RESERVED + "=otto",
                        RESERVED + "=otto", 401, "UNAUTHENTICATED"),
                new Attempt("no identity, forged X-Forwarded-For", false, List.of(h("X-Forwarded-For", "10.0.0.1, 127.0.0.1")),
                        "", null, 401, "UNAUTHENTICATED"),
                new Attempt("demo cookie on the production profile", false, List.of(h("Cookie", "cf_demo_user=otto")), "",
                        null, 401, "UNAUTHENTICATED"),
                new Attempt("X-Forwarded-User sent twice", false, List.of(h("X-Forwarded-User", "otto"),
                        h("X-Forwarded-User", "otto")), "", null, 401, "UNAUTHENTICATED"),
                new Attempt("no permission (alice)", false, List.of(h("X-Forwarded-User", "alice")), "", null, 403,
                        "ACCESS_DENIED"),
                new Attempt("no permission, forged operator parameter", false, List.of(h("X-Forwarded-User", "alice")),
                        RESERVED + "=otto", RESERVED + "=otto", 403, "ACCESS_DENIED"),
                new Attempt("no permission, forged X-Forwarded-For", false, List.of(h("X-Forwarded-User", "alice"),
                        h("X-Forwarded-For", "127.0.0.1")), "", null, 403, "ACCESS_DENIED"),
                new Attempt("unknown employee ID", false, List.of(h("X-Forwarded-User", "E99999")), "", null, 403,
                        "ACCESS_DENIED"),
                new Attempt("forged identity from an untrusted peer", true, List.of(h("X-Forwarded-User", "otto")), "",
                        null, 401, "UNAUTHENTICATED"),
                new Attempt("forged identity from an untrusted peer claiming a trusted hop", true,
                        List.of(h("X-Forwarded-User", "otto"), h("X-Forwarded-For", "10.0.0.5")), RESERVED + "=otto", null,
                        401, "UNAUTHENTICATED"));
    }

    private static RawHttp.Response submit(AppInstance to, List<RawHttp.Header> headers, byte[] body) {
        var request = RawHttp.Request.of("POST", "/api/requests").withHeader("Content-Type", "application/json")
                .withBody(body, RawHttp.Framing.CONTENT_LENGTH);
        for (var header : headers) {
            request = request.withHeader(header.name(), header.value());
        }
        return RawHttp.exchange(to.port(), request, TIMEOUT);
    }

    private static void expect(List<String> problems, String what, List<Integer> actual, List<Integer> expected) {
        if (!actual.equals(expected)) {
            problems.add(what + ": " + actual + ", expected " + expected);
        }
    }

    private static String randomIp(java.util.Random random) {
        return (1 + random.nextInt(220)) + "." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }

    private static RawHttp.Response post(String path, byte[] body, List<RawHttp.Header> headers) {
        var request = RawHttp.Request.of("POST", path).withBody(body, RawHttp.Framing.CONTENT_LENGTH);
        for (var header : headers) {
            request = request.withHeader(header.name(), header.value());
        }
        return RawHttp.exchange(edge.edge().port(), request, TIMEOUT);
    }

    private static long decisions(String op) {
        return Sql.number(edge.cluster().dataSource(), "select count(*) from operation_history where operation_id = ? and event in"
                + " ('APPROVAL_GRANTED_CREATE', 'APPROVAL_GRANTED_BATCH', 'APPROVAL_GRANTED_MERGE', 'APPROVAL_REJECTED',"
                + " 'APPROVAL_WITHDRAWN')", op);
    }


    private static String signature(String secret, String id, long timestamp, byte[] body) {
        return Webhooks.headers(secret, id, timestamp, body).get("webhook-signature");
    }

    private static List<RawHttp.Header> signed(String secret, String id, long timestamp, byte[] body) {
        return Webhooks.headers(secret, id, timestamp, body).entrySet().stream()
                .map(e -> h(e.getKey(), e.getValue())).toList();
    }

    private static List<RawHttp.Header> swap(List<RawHttp.Header> headers, String name, String value) {
        return headers.stream().map(h -> h.name().equals(name) ? h(name, value) : h).toList();
    }

    private static RawHttp.Header h(String name, String value) {
        return new RawHttp.Header(name, value);
    }

    static JsonNode json(RawHttp.Response response) {
        try {
            var text = response.bodyText();
            return text.isBlank() ? MissingNode.getInstance() : ApiClient.JSON.readTree(text);
        } catch (RuntimeException e) {
            return MissingNode.getInstance();
        }
    }

    static String code(RawHttp.Response response) {
        return json(response).path("code").asString("");
    }
}
