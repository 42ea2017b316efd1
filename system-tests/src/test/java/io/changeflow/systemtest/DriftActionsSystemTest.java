package io.changeflow.systemtest;

import static io.changeflow.systemtest.Grants.awaitStatus;
import static io.changeflow.systemtest.Grants.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 36, item 2, on the packaged application: a maintainer edits a grant's line on main by hand; the drift item
 * appears within one detection interval (plus the settle time) with the hand commit as its evidence, is listed at
 * {@code GET /ops/drift} and on the subject's own page, and an operator acknowledges it with a reason (audited).
 * A person merges merge requests before the approver decided: the refused one's line is removed from main by drift
 * handling (per-target {@code drift: remove}, the default), the approved one is in effect with its line. Detection
 * every 2 s, settle 1 s.
 */
class DriftActionsSystemTest {

    private static final Duration INTERVAL = Duration.ofSeconds(2);
    /** One interval, the settle time, and the time a run takes on a loaded 2-core machine. */
    private static final Duration FOUND_WITHIN = Duration.ofSeconds(30);
    /** One detection interval, the settle time, a removal round (2 s) with its pipeline and deploy confirmation. */
    private static final Duration AGREED_WITHIN = Duration.ofSeconds(60);
    private static final String PROJECT_API = "/sim/gitlab/api/v4/projects/"
            + SimulatorHost.PROJECT.replace("/", "%2F");

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(3)
            .withInstanceProperty("changeflow.drift.interval", INTERVAL.toSeconds() + "s")
            .withInstanceProperty("changeflow.drift.settle", "1s")
            .withInstances("solo");

    @AfterEach
    void approveAutomaticallyAgain() {
        cluster.sims().approval().mode(ApprovalSimulator.Mode.AUTO);
    }

    @Test
    void aHandEditOfAGrantsLineIsADriftItemWithinOneIntervalAndAnOperatorAcknowledgesItAudited() {
        var target = InstanceSettings.plainTargetKey(1);
        var file = "grants/" + target + ".txt";
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var until = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
        var grant = awaitStatus(alice, submit(alice, target, until), "VALIDATED", Duration.ofSeconds(60));
        var grantLine = "alice until=" + until + " op=" + grant.operationId();
        var content = cluster.sims().fileOnMain(file).orElseThrow();
        assertThat(content).contains(grantLine);

        // a maintainer edits alice's line by hand (no expiry any more) and merges it himself: main is protected, so
        // through a merge request of his own, as in GitLab's UI
        var edited = "alice until=never op=" + grant.operationId();
        var maintainer = Map.of("PRIVATE-TOKEN", SimulatorHost.MAINTAINER_TOKEN);
        var gitlab = cluster.sims().client();
        var branch = gitlab.send("POST", PROJECT_API + "/repository/branches", Map.of("branch", "hand-edit",
                "ref", "main"), maintainer);
        assertThat(branch.status()).as(branch.toString()).isEqualTo(201);
        var commit = gitlab.send("POST", PROJECT_API + "/repository/commits", Map.of("branch", "hand-edit",
                "commit_message", "extend alice by hand", "actions", List.of(Map.of("action", "update",
                        "file_path", file, "content", content.replace(grantLine, edited)))), maintainer);
        assertThat(commit.status()).as(commit.toString()).isEqualTo(201);
        var mergeRequest = gitlab.send("POST", PROJECT_API + "/merge_requests", Map.of("source_branch", "hand-edit",
                "target_branch", "main", "title", "extend alice"), maintainer);
        assertThat(mergeRequest.status()).as(mergeRequest.toString()).isEqualTo(201);
        var iid = mergeRequest.json().path("iid").asLong();
        // 422 "Branch cannot be merged" while its pipeline runs, as GitLab answers
        assertThat(Poll.until("the maintainer's merge of his edit", Duration.ofSeconds(60), Duration.ofMillis(500),
                () -> cluster.sims().mergeByHand(iid), status -> status != 422)).isEqualTo(200);
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).contains(edited);
        var pushed = Instant.now();

        var item = Poll.until("the hand edit as a drift item at GET /ops/drift", FOUND_WITHIN,
                () -> editedLineOf(otto.get("/ops/drift?targetKey=" + target + "&kind=EDITED_LINE").data(), edited),
                Optional::isPresent).orElseThrow();
        Figures.record("hand edit of a grant's line: from the push to the drift item",
                Duration.between(pushed, Instant.now()).toMillis() + " ms (detection every 2 s, settle 1 s)");
        assertThat(item.path("subjectId").asString()).isEqualTo("alice");
        assertThat(item.path("status").asString()).isEqualTo("OPEN");
        assertThat(item.path("evidence").path("commitSha").asString()).as("the commit that brought the line")
                .isNotBlank();
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).as("a hand edit is never removed by itself")
                .contains(edited);

        var mine = alice.get("/api/drift");
        assertThat(mine.status()).isEqualTo(200);
        assertThat(StreamSupport.stream(mine.data().spliterator(), false)
                .filter(m -> m.path("item").path("id").asLong() == item.path("id").asLong()).findFirst())
                .as("alice sees the drift of her own access").hasValueSatisfying(m ->
                        assertThat(m.path("asSubject").asBoolean()).isTrue());

        var id = item.path("id").asLong();
        var refused = otto.post("/ops/drift/" + id + "/acknowledge", Map.of());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        var acknowledged = otto.post("/ops/drift/" + id + "/acknowledge",
                Map.of("reason", "the team lead extended it; a renewal request follows"));
        assertThat(acknowledged.status()).as(acknowledged.toString()).isEqualTo(200);
        assertThat(acknowledged.code()).isEqualTo("ACKNOWLEDGED");
        var again = otto.post("/ops/drift/" + id + "/acknowledge", Map.of("reason", "twice"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("DRIFT_ALREADY_HANDLED");

        var listed = editedLineOf(otto.get("/ops/drift?status=acknowledged&targetKey=" + target).data(), edited)
                .orElseThrow();
        assertThat(listed.path("statusActor").asString()).isEqualTo("otto");
        assertThat(listed.path("statusNote").asString()).contains("a renewal request follows");
        var audit = Sql.rows(cluster.dataSource(), "select actor, action, parameters from audit_log where subject = ?"
                + " order by id", "drift:" + id);
        assertThat(audit).extracting(row -> row.get("actor") + " " + row.get("action"))
                .containsExactly("otto ACKNOWLEDGE_DRIFT", "otto ACKNOWLEDGE_DRIFT", "otto ACKNOWLEDGE_DRIFT");
        assertThat(String.valueOf(audit.get(1).get("parameters"))).contains("ACKNOWLEDGED");

        // a later run sees the line again and leaves it acknowledged (not counted as unhandled again)
        var acknowledgedAt = Instant.parse(listed.path("statusAt").asString());
        var seenAgain = Poll.until("a detection run after the acknowledgement", FOUND_WITHIN,
                () -> editedLineOf(otto.get("/ops/drift?targetKey=" + target).data(), edited),
                i -> i.map(j -> Instant.parse(j.path("lastSeen").asString()).isAfter(acknowledgedAt)).orElse(false))
                .orElseThrow();
        assertThat(seenAgain.path("status").asString()).isEqualTo("ACKNOWLEDGED");
        assertThat(seenAgain.path("id").asLong()).isEqualTo(id);
    }

    /**
     * Issue 36: a maintainer merges two requests' merge requests on GitLab while their approvals wait. The approver
     * then refuses one and approves the other. Within one detection interval plus a removal round, main and the
     * service agree: the refused request's line (nobody approved it) is removed through the normal workflow and the
     * relationship is REVOKED (the REJECTED answer does not stay while main grants); the approved one is VALIDATED
     * with exactly its line and nothing left to report.
     */
    @Test
    void mergeRequestsAPersonMergesBeforeTheApproverDecidedEndAsMainSays() {
        var refusedTarget = InstanceSettings.plainTargetKey(2);
        var approvedTarget = InstanceSettings.plainTargetKey(3);
        var refusedFile = "grants/" + refusedTarget + ".txt";
        var approvedFile = "grants/" + approvedTarget + ".txt";
        var bob = cluster.client("solo", "bob");
        var carol = cluster.client("solo", "carol");
        var otto = cluster.client("solo", "otto");
        var approval = cluster.sims().approval();
        approval.mode(ApprovalSimulator.Mode.MANUAL);
        var until = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
        var refused = submit(bob, refusedTarget, until);
        var approved = submit(carol, approvedTarget, until);
        var refusedIid = mergedByHandWhileTheApprovalWaits(bob, refused);
        var approvedIid = mergedByHandWhileTheApprovalWaits(carol, approved);
        assertThat(cluster.sims().grantLinesOnMain(refusedFile, refused.operationId())).isEqualTo(1);
        assertThat(cluster.sims().grantLinesOnMain(approvedFile, approved.operationId())).isEqualTo(1);

        var decided = Instant.now();
        decide(refused, false);
        decide(approved, true);

        var revoked = Poll.until("bob's line on " + refusedTarget + " gone from main and the service saying so",
                AGREED_WITHIN, Duration.ofMillis(500), () -> new Agreement(
                        cluster.sims().grantLinesOnMain(refusedFile, refused.operationId()),
                        Grants.binding(bob, refusedTarget).map(b -> b.path("status").asString()).orElse("none")),
                a -> a.linesOnMain() == 0 && "REVOKED".equals(a.status()));
        Figures.record("merged by a person before a refusal: from the decision to the line removed",
                Duration.between(decided, Instant.now()).toMillis() + " ms (detection every 2 s, rounds every 2 s): "
                        + revoked);
        var removalId = Grants.binding(bob, refusedTarget).orElseThrow().path("operationId").asString();
        assertThat(removalId).as("a removal of the line took the refused request's place").isNotEqualTo(
                refused.operationId());
        assertThat(bob.request(removalId).status()).isEqualTo("REVOKED");
        var item = Poll.until("the unapproved line's drift item resolved once the line is gone", FOUND_WITHIN,
                () -> StreamSupport.stream(otto.get("/ops/drift?status=resolved&targetKey=" + refusedTarget
                        + "&kind=UNAPPROVED_LINE").data().spliterator(), false)
                        .filter(i -> i.path("line").asString().endsWith("op=" + refused.operationId())).findFirst(),
                Optional::isPresent).orElseThrow();
        assertThat(item.path("subjectId").asString()).isEqualTo("bob");
        assertThat(item.path("evidence").path("commitSha").asString()).as("the person's merge commit").isNotBlank();
        assertThat(cluster.sims().gitlab().mergeRequestState(SimulatorHost.PROJECT, refusedIid)).isEqualTo("merged");

        var validated = awaitStatus(carol, approved, "VALIDATED", Duration.ofSeconds(60));
        assertThat(validated.mergeRequestIid()).isEqualTo(approvedIid);
        assertThat(cluster.sims().grantLinesOnMain(approvedFile, approved.operationId())).isEqualTo(1);
        assertThat(Grants.binding(carol, approvedTarget).orElseThrow().path("status").asString())
                .isEqualTo("VALIDATED");
        // while its request waited, its line may have been reported; once in effect nothing is left to report
        Poll.until("no drift left on " + approvedTarget, FOUND_WITHIN,
                () -> otto.get("/ops/drift?targetKey=" + approvedTarget).data(), JsonNode::isEmpty);
        assertThat(cluster.sims().grantLinesOnMain(approvedFile, approved.operationId())).isEqualTo(1);
    }

    private record Agreement(long linesOnMain, String status) {}

    /** Waits for the request's approval to be asked, then merges its merge request as the maintainer. */
    private static long mergedByHandWhileTheApprovalWaits(ApiClient client, RequestView request) {
        var waiting = Poll.until("request " + request.operationId() + " waiting for its approver", Duration.ofSeconds(60),
                () -> client.request(request.operationId()), v -> "APPROVAL_SENT".equals(v.status()) || v.isAtRest());
        assertThat(waiting.status()).as(waiting.toString()).isEqualTo("APPROVAL_SENT");
        var iid = waiting.mergeRequestIid();
        assertThat(Poll.until("the maintainer's merge of !" + iid, Duration.ofSeconds(60), Duration.ofMillis(500),
                () -> cluster.sims().mergeByHand(iid), status -> status != 422)).isEqualTo(200);
        return iid;
    }

    private static void decide(RequestView request, boolean yes) {
        var approval = cluster.sims().approval();
        var ticket = Poll.until("the approval ticket of " + request.operationId(), Duration.ofSeconds(20),
                () -> approval.byOperationId(request.operationId()), Optional::isPresent).orElseThrow();
        assertThat(approval.decide(ticket.ticket(), yes, "approver")).isEqualTo(ApprovalSimulator.Decision.DECIDED);
    }

    private static Optional<JsonNode> editedLineOf(JsonNode items, String line) {
        return StreamSupport.stream(items.spliterator(), false).filter(i -> line.equals(i.path("line").asString()))
                .findFirst();
    }
}
