package io.changeflow.systemtest;

import static io.changeflow.systemtest.Grants.awaitStatus;
import static io.changeflow.systemtest.Grants.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 36, item 2, on the packaged application: a maintainer edits a grant's line on main by hand; the drift item
 * appears within one detection interval (plus the settle time) with the hand commit as its evidence, is listed at
 * {@code GET /ops/drift} and on the subject's own page, and an operator acknowledges it with a reason (audited).
 * Detection every 2 s, settle 1 s.
 */
class DriftActionsSystemTest {

    private static final Duration INTERVAL = Duration.ofSeconds(2);
    /** One interval, the settle time, and the time a run takes on a loaded 2-core machine. */
    private static final Duration FOUND_WITHIN = Duration.ofSeconds(30);
    private static final String PROJECT_API = "/sim/gitlab/api/v4/projects/"
            + SimulatorHost.PROJECT.replace("/", "%2F");

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1)
            .withInstanceProperty("changeflow.drift.interval", INTERVAL.toSeconds() + "s")
            .withInstanceProperty("changeflow.drift.settle", "1s")
            .withInstances("solo");

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

    private static Optional<JsonNode> editedLineOf(JsonNode items, String line) {
        return StreamSupport.stream(items.spliterator(), false).filter(i -> line.equals(i.path("line").asString()))
                .findFirst();
    }
}
