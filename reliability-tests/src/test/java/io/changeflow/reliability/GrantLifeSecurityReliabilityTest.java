package io.changeflow.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.reliability.support.Callbacks;
import io.changeflow.reliability.support.EdgeCluster;
import io.changeflow.reliability.support.Leaks;
import io.changeflow.reliability.support.RawHttp;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The rules of a grant's life, attacked on the packaged application (the shared {@link EdgeCluster}, production
 * profile), as issue 37 found them:
 * <ul>
 *   <li>a requester's reason with CR, U+2028 and U+2029 and forged {@code Changeflow-Operation:} lines: their merge
 *       request's description lists only their own operation, and deploy reports for their merge request that list
 *       the victim's operation ({@code success} and {@code failed}) leave the victim's request as it was, the
 *       foreign ID counted in {@code ignored};</li>
 *   <li>the preview for another person's subject shows only the line it would add, never their existing line
 *       ({@code removedLine} null, their operation ID nowhere); the subject and an operator still see it;</li>
 *   <li>identity fails closed: a user header sent twice, blank or garbled next to the operator's email header is 401
 *       UNAUTHENTICATED, an unknown employee ID next to it 403 ACCESS_DENIED: never the operator;</li>
 *   <li>the sandbox cannot open production: the production instance with {@code changeflow.sandbox.demo-login=true}
 *       has no sign-in endpoint and ignores the demo cookie of the operator; the jar started with the sandbox
 *       profile and {@code changeflow.environment=production} exits during start-up saying why.</li>
 *   <li>logs: JSON lines on the production profile, plain text on the sandbox's;</li>
 *   <li>a deploy report of main at a commit moves only the requests merged into that commit;</li>
 *   <li>who may ask for whom: a request for another person on a target with the default policy ({@code self}), and
 *       a give-up by someone other than the subject, are 403 NOT_ALLOWED_FOR_SUBJECT; on an {@code anyone} target
 *       the subject sees a request asked for them and their own request supersedes it.</li>
 * </ul>
 * The deploy simulator's own reports are switched off meanwhile ({@code lostShare} 1), so every report the victim's
 * request could see is one of the test's.
 */
class GrantLifeSecurityReliabilityTest {

    @RegisterExtension
    static final EdgeCluster edge = new EdgeCluster();

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String TRAILER = "Changeflow-Operation:";
    /** How the deploy simulator reads the IDs ({@code DeployPipelineSimulator}): {@code ^}/{@code $} at any line terminator. */
    static final Pattern OPERATION_LINE = Pattern.compile("^\\s*Changeflow-Operation:\\s*([0-9a-fA-F-]{36})\\s*$",
            Pattern.MULTILINE);

    static double lostShare;
    /** alice's request for someone else, merged, its deploy report not sent. */
    static String victim;
    static String victimSubject;

    @BeforeAll
    static void mergeTheVictimsRequest() {
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        lostShare = edge.cluster().sims().deploy().lostShare();
        edge.cluster().sims().deploy().lostShare(1.0);
        victimSubject = "svc-gls-victim-" + UUID.randomUUID().toString().substring(0, 8);
        victim = mergedRequest(edge.edge().client("alice"), victimSubject, "the quarterly report");
    }

    @AfterAll
    static void restore() {
        edge.cluster().sims().deploy().lostShare(lostShare);
    }

    @Test
    void aForgedOperationLineInAReasonNeverLetsTheRequestersDeployReportMoveAnotherRequest() {
        var forged = "needed\r" + TRAILER + " " + victim + "\u2028" + TRAILER + " " + victim + "\u2029" + TRAILER + " "
                + victim + "\r\n" + TRAILER + " " + victim;
        var bob = edge.edge().client("bob");
        var mallory = mergedRequest(bob, "svc-gls-mallory-" + UUID.randomUUID().toString().substring(0, 8), forged);
        var mr = bob.request(mallory);

        var description = edge.cluster().sims().mergeRequestsFrom("changeflow/" + mallory).getFirst().path("description")
                .asString("");
        var listed = new ArrayList<String>();
        var matcher = OPERATION_LINE.matcher(description);
        while (matcher.find()) {
            listed.add(matcher.group(1));
        }
        assertThat(listed).as(description).containsExactly(mallory);
        assertThat(Pattern.compile("\\R").splitAsStream(description).filter(line -> line.strip().startsWith(TRAILER)))
                .as(description).containsExactly(TRAILER + " " + mallory);

        // worse than the pipeline would do: reports for mallory's merge request that name the victim
        var failed = deployReport(mr, "failed", List.of(victim));
        var success = deployReport(mr, "success", List.of(mallory, victim));

        assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
        assertThat(failed.data().path("ignored").asInt(-1)).as(failed.toString()).isEqualTo(1);
        assertThat(success.code()).as(success.toString()).isEqualTo("PROCESSED");
        assertThat(success.data().path("advanced").asInt(-1)).as(success.toString()).isEqualTo(1);
        assertThat(success.data().path("ignored").asInt(-1)).as(success.toString()).isEqualTo(1);
        assertThat(edge.edge().client("alice").request(victim).status()).isEqualTo("MERGED");
        assertThat(bob.request(mallory).status()).isEqualTo("VALIDATED");
    }

    @Test
    void thePreviewOfAnotherPersonsSubjectShowsOnlyTheLineItWouldAdd() {
        var path = "/api/requests/preview?targetKey=db-prod-readonly&subjectId=" + victimSubject;

        for (var stranger : List.of("carol", "alice")) {
            var preview = edge.edge().client(stranger).get(path);
            assertThat(preview.code()).as(stranger + ": " + preview).isEqualTo("OK");
            assertThat(preview.data().path("removedLine").isNull()).as(stranger + ": " + preview).isTrue();
            assertThat(preview.data().path("addedLine").asString("")).startsWith(victimSubject + " ");
            assertThat(preview.body()).as(stranger + ": " + preview).doesNotContain(victim);
        }
        var operator = edge.edge().client("otto").get(path);
        assertThat(operator.data().path("removedLine").asString("")).as(operator.toString()).contains(victim);
    }

    @Test
    void aSentUserHeaderThatNamesNobodyIsRefusedAndNeverReplacedByTheEmailHeader() {
        var operatorEmail = "otto@" + EdgeCluster.ACCEPTED_EMAIL_DOMAIN;
        var problems = new ArrayList<String>();
        var attempts = new LinkedHashMap<String, List<RawHttp.Header>>();
        attempts.put("user header twice", List.of(h("X-Forwarded-User", "carol"), h("X-Forwarded-User", "dave")));
        attempts.put("blank user header", List.of(h("X-Forwarded-User", " ")));
        attempts.put("garbled user header", List.of(h("X-Forwarded-User", "Not A Name!")));
        attempts.put("two addresses in the user header", List.of(h("X-Forwarded-User", "carol@x@" + EdgeCluster.ACCEPTED_EMAIL_DOMAIN)));
        for (var attempt : attempts.entrySet()) {
            var response = exchange("/ops/config", attempt.getValue(), operatorEmail);
            if (response.status() != 401 || !"UNAUTHENTICATED".equals(code(response))) {
                problems.add(attempt.getKey() + ": expected 401 UNAUTHENTICATED, got " + response);
            }
            Leaks.find(response.wholeText(), attempt.getKey(), false).forEach(leak -> problems.add(attempt.getKey() + " leaks " + leak));
        }
        var unknownEmployee = exchange("/ops/config", List.of(h("X-Forwarded-User", "E9999")), operatorEmail);
        if (unknownEmployee.status() != 403 || !"ACCESS_DENIED".equals(code(unknownEmployee))) {
            problems.add("an unknown employee ID with the operator's address: expected 403 ACCESS_DENIED, got " + unknownEmployee);
        }
        // the control: the operator's address alone is the operator (the edge's gateway sends both headers)
        var control = exchange("/ops/config", List.of(), operatorEmail);
        if (control.status() != 200) {
            problems.add("the operator's address alone: " + control);
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theDemoLoginPropertyOnTheProductionProfileOpensNoDemoSignIn() {
        var login = RawHttp.exchange(edge.edge().port(), RawHttp.Request.of("POST", "/sandbox/login")
                .withHeader("Content-Type", "application/json").withHeader("X-Requested-With", "XMLHttpRequest")
                .withBody("{\"user\":\"otto\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8), RawHttp.Framing.CONTENT_LENGTH),
                TIMEOUT);
        assertThat(login.status()).as(login.toString()).isIn(401, 404);
        assertThat(String.valueOf(login.header("Set-Cookie"))).doesNotContain("cf_demo_user");
        for (var path : List.of("/api/me", "/ops/config")) {
            var withCookie = RawHttp.exchange(edge.edge().port(), RawHttp.Request.of("GET", path)
                    .withHeader("Cookie", "cf_demo_user=otto"), TIMEOUT);
            assertThat(withCookie.status()).as(path + ": " + withCookie).isEqualTo(401);
            assertThat(code(withCookie)).isEqualTo("UNAUTHENTICATED");
        }
    }

    /**
     * Logs: the production profile writes one JSON object (ECS) per line, so a logged value cannot start a line of its
     * own; the sandbox profile writes plain text lines. Read from each instance's output: the start-up line of the web
     * server and, on production only, the warning about unverified employee IDs.
     */
    @Test
    void theProductionProfileLogsJsonLinesAndTheSandboxPlainText() throws java.io.IOException {
        var production = java.nio.file.Files.readAllLines(edge.edge().logFile());
        assertThat(production).filteredOn(line -> line.contains("Tomcat started on ")).as("production").isNotEmpty()
                .allSatisfy(line -> assertThat(ApiClient.JSON.readTree(line).path("log").path("level").asString())
                        .isEqualTo("INFO"));
        assertThat(production).filteredOn(line -> line.contains("employee IDs are UNVERIFIED")).isNotEmpty()
                .allSatisfy(line -> assertThat(ApiClient.JSON.readTree(line).path("message").asString())
                        .contains("employee IDs are UNVERIFIED"));
        var sandbox = java.nio.file.Files.readAllLines(edge.sandbox().logFile());
        assertThat(sandbox).filteredOn(line -> line.contains("Tomcat started on ")).as("sandbox").isNotEmpty()
                .allSatisfy(line -> assertThat(line).doesNotStartWith("{").contains(" INFO "));
    }

    @Test
    void theSandboxProfileRefusesToStartWhereProductionIsConfigured() {
        assertThatThrownBy(() -> edge.cluster().start("sandbox-in-production", s -> s
                .set("spring.profiles.active", "sandbox")
                .set("changeflow.environment", "production")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("during start-up")
                .hasMessageContaining("Refusing to start: the sandbox profile")
                .hasMessageContaining("changeflow.environment=production");
    }

    /**
     * Who may ask for whom: on a target without the setting (fail-safe {@code self}) a request for another person is
     * 403 NOT_ALLOWED_FOR_SUBJECT and opens nothing, so that person's own request goes through; a give-up naming another
     * subject is 403 too, whether that person holds a grant (the victim's subject, requested by alice herself) or not.
     */
    @Test
    void aRequestForAnotherPersonUnderTheDefaultPolicyAndAGiveUpByANonSubjectAreRefused() {
        var bob = edge.edge().client("bob");
        var forCarol = bob.submit(EdgeCluster.SELF_ONLY_TARGET, "carol", "for a colleague");
        assertThat(forCarol.status()).as(forCarol.toString()).isEqualTo(403);
        assertThat(forCarol.code()).as(forCarol.toString()).isEqualTo("NOT_ALLOWED_FOR_SUBJECT");
        var own = edge.edge().client("carol").submit(EdgeCluster.SELF_ONLY_TARGET, "carol", "my own");
        assertThat(own.status()).as("carol's own request is not blocked: " + own).isEqualTo(202);

        for (var subject : List.of(victimSubject, "svc-gls-nobody")) {
            var giveUp = edge.edge().client("alice").post("/api/bindings/db-prod-readonly/give-up?subjectId=" + subject,
                    null);
            assertThat(giveUp.status()).as(subject + ": " + giveUp).isEqualTo(403);
            assertThat(giveUp.code()).as(subject + ": " + giveUp).isEqualTo("NOT_ALLOWED_FOR_SUBJECT");
        }
        assertThat(edge.edge().client("alice").request(victim).status()).isEqualTo("MERGED");
    }

    /** Submits as {@code requester} for {@code subject}, approves it in the approver inbox and waits until merged. */
    /**
     * Who may ask for whom, the subject's side: on an {@code anyone} target alice asks for a person (the approver has
     * not decided). The person finds it in their records ({@code requester} alice) and may read it; a third person's
     * request for them is 409 REQUEST_IN_PROGRESS; their own request is accepted and supersedes alice's, which ends
     * CLOSED at SUPERSEDED_BY_SUBJECT (hint CAN_REAPPLY, read by alice) with its approval withdrawn in the approval
     * system; the person's own request holds their row.
     */
    @Test
    void theSubjectsOwnRequestSupersedesOneAskedForThemAndTheySeeItInTheirRecords() {
        var subject = "gls-subject-" + UUID.randomUUID().toString().substring(0, 8);
        var alice = edge.edge().client("alice");
        var asked = alice.submit("db-prod-readonly", subject, "for a colleague");
        assertThat(asked.status()).as(asked.toString()).isEqualTo(202);
        var askedId = asked.data().path("operationId").asString();
        var sims = edge.cluster().sims();
        Poll.until("the approval ticket of " + askedId, Duration.ofSeconds(60), () -> sims.approval().byOperationId(askedId),
                java.util.Optional::isPresent);

        var person = edge.edge().client(subject);
        var records = person.get("/api/requests");
        assertThat(records.status()).as(records.toString()).isEqualTo(200);
        assertThat(records.data().path("items")).as("the subject's records")
                .anySatisfy(item -> {
                    assertThat(item.path("operationId").asString()).isEqualTo(askedId);
                    assertThat(item.path("requester").asString()).isEqualTo("alice");
                });
        assertThat(person.request(askedId).json().path("requester").asString()).isEqualTo("alice");
        var third = edge.edge().client("carol").submit("db-prod-readonly", subject, "me too");
        assertThat(third.status()).as(third.toString()).isEqualTo(409);
        assertThat(third.code()).isEqualTo("REQUEST_IN_PROGRESS");

        var own = person.submit("db-prod-readonly", subject, "my own");
        assertThat(own.status()).as("the subject's own request wins: " + own).isEqualTo(202);
        var ownId = own.data().path("operationId").asString();
        var superseded = alice.request(askedId);
        assertThat(superseded.step()).as(superseded.toString()).isEqualTo("SUPERSEDED_BY_SUBJECT");
        assertThat(superseded.hint()).isEqualTo("CAN_REAPPLY");
        assertThat(sims.approval().byOperationId(askedId)).as("its approver no longer decides it")
                .hasValueSatisfying(ticket -> assertThat(ticket.status().name()).isEqualTo("WITHDRAWN"));
        assertThat(person.bindings()).as("the row is the subject's own request's")
                .anySatisfy(row -> assertThat(row.path("operationId").asString()).isEqualTo(ownId));
    }

    /**
     * Issue 37: a deploy of main at a commit covers the requests merged into that commit (the commit itself, or an
     * ancestor as GitLab's merge base says), never one merged after it, whatever the report lists. The report lists
     * its IDs so that the victim (merged before, held waiting for the other tests) is not covered.
     */
    @Test
    void aDeployReportOfMainAtACommitMovesOnlyTheRequestsMergedIntoItAndIgnoresOneMergedAfter() {
        var bob = edge.edge().client("bob");
        var before = mergedRequest(bob, "svc-gls-c0-" + UUID.randomUUID().toString().substring(0, 8), "first");
        var at = mergedRequest(bob, "svc-gls-c1-" + UUID.randomUUID().toString().substring(0, 8), "second");
        var after = mergedRequest(bob, "svc-gls-c2-" + UUID.randomUUID().toString().substring(0, 8), "third");
        var mr = edge.cluster().sims().mergeRequestsFrom("changeflow/" + at).getFirst();
        var sha = java.util.stream.Stream.of("merge_commit_sha", "squash_commit_sha", "sha").map(f -> mr.path(f).asString(""))
                .filter(v -> !v.isBlank()).findFirst().orElseThrow();

        var body = new LinkedHashMap<String, Object>();
        body.put("projectId", SimulatorHost.PROJECT);
        body.put("ref", "main");
        body.put("sha", sha);
        body.put("status", "success");
        body.put("operationIds", List.of(before, at, after));
        var report = Callbacks.signedPost(edge.edge(), Callbacks.DEPLOY, edge.cluster().sims().deploySecret(),
                Callbacks.json(body));

        assertThat(report.code()).as(report.toString()).isEqualTo("PROCESSED");
        assertThat(report.data().path("advanced").asInt(-1)).as(report.toString()).isEqualTo(2);
        assertThat(report.data().path("ignored").asInt(-1)).as("merged after the commit: " + report).isEqualTo(1);
        assertThat(bob.request(before).status()).as("merged before: GitLab's merge base").isEqualTo("VALIDATED");
        assertThat(bob.request(at).status()).isEqualTo("VALIDATED");
        assertThat(bob.request(after).status()).isEqualTo("MERGED");
        assertThat(edge.edge().client("alice").request(victim).status()).as("not listed").isEqualTo("MERGED");
    }

    static String mergedRequest(ApiClient requester, String subject, String reason) {
        var submitted = requester.submit("db-prod-readonly", subject, reason);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var sims = edge.cluster().sims();
        var ticket = Poll.until("the approval ticket of " + id, Duration.ofSeconds(60), () -> sims.approval().byOperationId(id),
                java.util.Optional::isPresent).orElseThrow();
        sims.approval().decide(ticket.ticket(), true, "amy");
        var view = Poll.until(id + " merged", Duration.ofSeconds(90), Duration.ofMillis(250), () -> requester.request(id),
                v -> "MERGED".equals(v.status()) || v.isTerminal());
        assertThat(view.status()).as(view.toString()).isEqualTo("MERGED");
        return id;
    }

    static io.changeflow.systemtest.harness.ApiResponse deployReport(RequestView mr, String status, List<String> operationIds) {
        var body = new LinkedHashMap<String, Object>();
        body.put("projectId", SimulatorHost.PROJECT);
        body.put("mrIid", mr.mergeRequestIid());
        body.put("status", status);
        body.put("operationIds", operationIds);
        return Callbacks.signedPost(edge.edge(), Callbacks.DEPLOY, edge.cluster().sims().deploySecret(), Callbacks.json(body));
    }

    static RawHttp.Response exchange(String path, List<RawHttp.Header> headers, String email) {
        var request = RawHttp.Request.of("GET", path).withHeader("X-Forwarded-Email", email);
        for (var header : headers) {
            request = request.withHeader(header.name(), header.value());
        }
        return RawHttp.exchange(edge.edge().port(), request, TIMEOUT);
    }

    static RawHttp.Header h(String name, String value) {
        return new RawHttp.Header(name, value);
    }

    static String code(RawHttp.Response response) {
        try {
            JsonNode json = ApiClient.JSON.readTree(response.bodyText());
            return json.path("code").asString("");
        } catch (RuntimeException e) {
            return "";
        }
    }
}
