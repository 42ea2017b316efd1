package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/** The drift list and an operator's actions on an item over HTTP (issue 36, item 2). */
class DriftWebTest extends WebTestSupport {

    private static final AtomicInteger LINES = new AtomicInteger();

    @Autowired
    FakeDrifts drifts;

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    /** A new item of {@code kind} about {@code subject} (null: none), with a line no other test uses. */
    private DriftItem found(TargetKey target, DriftKind kind, String subject) {
        var line = (subject == null ? "# note" : subject) + " until=never op=0c0c0000-0000-4000-8000-"
                + String.format("%012d", LINES.incrementAndGet());
        var finding = new Finding(kind, Optional.ofNullable(subject).map(SubjectId::of), line, Optional.empty(),
                "A line nobody approved.");
        var evidence = new Evidence(Optional.of("5ca1ab1e"), Optional.of("mallory"),
                Optional.of(Instant.parse("2026-03-01T08:00:00Z")));
        var ids = drifts.record(target, List.of(new Drifts.Sighting(finding, evidence)), "5ca1ab1e", clock.instant());
        return drifts.find(ids.getFirst()).orElseThrow();
    }

    private DriftStatus statusOf(DriftItem item) {
        return drifts.find(item.id()).orElseThrow().status();
    }

    private org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder json(String path, String body) {
        return post(path).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    @Test
    void operatorsListTheItemsWithTheirEvidenceAndTheActionsTheyAllow() throws Exception {
        var item = found(FakeTargets.SINGLE, DriftKind.UNAPPROVED_LINE, "mona");
        mvc.perform(as(get("/ops/drift").param("targetKey", FakeTargets.SINGLE.value()).param("kind", "unapproved_line"),
                        "otto"))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].line").value(item.line()))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].subjectId").value("mona"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].evidence.commitSha").value("5ca1ab1e"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].evidence.author").value("mallory"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].evidence.committedAt").value("2026-03-01T08:00:00Z"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].status").value("OPEN"))
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")].allowedActions[*]")
                        .value(org.hamcrest.Matchers.contains("REMOVE", "ADOPT", "ACKNOWLEDGE")))
                .andExpect(jsonPath("$.data[?(@.kind != 'UNAPPROVED_LINE')]").isEmpty());
        mvc.perform(as(get("/ops/drift").param("targetKey", FakeTargets.BATCHABLE.value()), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.id == " + item.id() + ")]").isEmpty());
        mvc.perform(as(get("/ops/drift"), "alice")).andExpect(status().isForbidden());
        mvc.perform(get("/ops/drift")).andExpect(status().isUnauthorized());
    }

    @Test
    void aFilterThatCannotBeOneIsAStable400() throws Exception {
        mvc.perform(as(get("/ops/drift").param("kind", "typo"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("kind", "INVALID_VALUE"));
        mvc.perform(as(get("/ops/drift").param("status", "closed"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("status", "INVALID_VALUE"));
        mvc.perform(as(get("/ops/drift").param("targetKey", "Not A Key!"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("targetKey", "INVALID_VALUE"));
    }

    @Test
    void anAcknowledgementNeedsAReasonAndASecondOneIsA409() throws Exception {
        var item = found(FakeTargets.SINGLE, DriftKind.EDITED_LINE, "nina");
        var path = "/ops/drift/" + item.id() + "/acknowledge";

        mvc.perform(as(json(path, "{}"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("reason", "REQUIRED"));
        mvc.perform(as(post(path), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("reason", "REQUIRED"));
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);

        mvc.perform(as(json(path, "{\"reason\": \"the team lead extended it by phone\"}"), "otto"))
                .andExpect(answers(status().isOk(), "ACKNOWLEDGED"))
                .andExpect(jsonPath("$.data.item.status").value("ACKNOWLEDGED"))
                .andExpect(jsonPath("$.data.item.statusActor").value("otto"))
                .andExpect(jsonPath("$.data.item.statusNote").value(org.hamcrest.Matchers.containsString("extended it by phone")));
        mvc.perform(as(json(path, "{\"reason\": \"again\"}"), "otto"))
                .andExpect(answers(status().isConflict(), "DRIFT_ALREADY_HANDLED"));
        assertThat(app.audit.about("drift:" + item.id())).extracting(e -> e.action() + "/" + e.parameters().get("result"))
                .containsExactly("ACKNOWLEDGE_DRIFT/INVALID_REQUEST", "ACKNOWLEDGE_DRIFT/INVALID_REQUEST",
                        "ACKNOWLEDGE_DRIFT/ACKNOWLEDGED", "ACKNOWLEDGE_DRIFT/DRIFT_ALREADY_HANDLED");
    }

    @Test
    void anUnknownItemIs404AndPeopleWhoAreNoOperatorsMayNotAct() throws Exception {
        var item = found(FakeTargets.SINGLE, DriftKind.UNAPPROVED_LINE, "olga");
        for (var id : new String[] {"987654321", "abc"}) {
            mvc.perform(as(post("/ops/drift/" + id + "/remove"), "otto"))
                    .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        }
        mvc.perform(as(post("/ops/drift/" + item.id() + "/remove"), "olga")).andExpect(status().isForbidden());
        mvc.perform(as(json("/ops/drift/" + item.id() + "/acknowledge", "{\"reason\": \"mine\"}"), "olga"))
                .andExpect(status().isForbidden());
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void removingAnItemOpensTheRemovalAndAMissingLineCannotBeRemoved() throws Exception {
        var item = found(FakeTargets.SINGLE, DriftKind.BASELINE, "paul");
        mvc.perform(as(post("/ops/drift/" + item.id() + "/remove"), "otto"))
                .andExpect(answers(status().isOk(), "REMOVING"))
                .andExpect(jsonPath("$.data.item.status").value("REMOVING"))
                .andExpect(jsonPath("$.data.operationId").isNotEmpty())
                .andExpect(jsonPath("$.data.item.removalOperationId").isNotEmpty());
        mvc.perform(as(post("/ops/drift/" + item.id() + "/remove"), "otto"))
                .andExpect(answers(status().isConflict(), "DRIFT_ALREADY_HANDLED"));

        var missing = found(FakeTargets.SINGLE, DriftKind.MISSING_LINE, "quin");
        mvc.perform(as(post("/ops/drift/" + missing.id() + "/remove"), "otto"))
                .andExpect(answers(status().isConflict(), "DRIFT_ACTION_NOT_POSSIBLE"));
        assertThat(statusOf(missing)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void adoptingOpensAGrantRequestWithTheUntilAndABadUntilIsAFieldError() throws Exception {
        var item = found(FakeTargets.SINGLE, DriftKind.UNAPPROVED_LINE, "rita");
        var path = "/ops/drift/" + item.id() + "/adopt";
        mvc.perform(as(json(path, "{\"until\": \"someday\"}"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("until", "INVALID_FORMAT"));
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);

        var until = clock.instant().plus(Duration.ofDays(10)).toString();
        mvc.perform(as(json(path, "{\"until\": \"" + until + "\"}"), "otto"))
                .andExpect(answers(status().isOk(), "ADOPTED"))
                .andExpect(jsonPath("$.data.item.status").value("ADOPTED"))
                .andExpect(jsonPath("$.data.operationId").isNotEmpty());
        var request = app.operations.binding(SubjectId.of("rita"), FakeTargets.SINGLE).orElseThrow().operationId();
        assertThat(app.op(request).requester()).isEqualTo("otto");
        assertThat(app.op(request).expiresAt()).contains(Instant.parse(until));
    }

    @Test
    void adoptingForASubjectWithARequestInProgressIsTheSubmissions409() throws Exception {
        var subject = "sven-" + LINES.incrementAndGet();
        app.submitAccepted(FakeTargets.SINGLE, subject);
        var item = found(FakeTargets.SINGLE, DriftKind.UNAPPROVED_LINE, subject);
        mvc.perform(as(json("/ops/drift/" + item.id() + "/adopt", "{}"), "otto"))
                .andExpect(answers(status().isConflict(), "REQUEST_IN_PROGRESS"));
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void aPersonSeesTheDriftAboutThemselvesAndNotOthers() throws Exception {
        var theirs = found(FakeTargets.SINGLE, DriftKind.MISSING_LINE, "tina");
        var others = found(FakeTargets.SINGLE, DriftKind.UNAPPROVED_LINE, "ugo");
        mvc.perform(as(get("/api/drift"), "tina"))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data[?(@.item.id == " + theirs.id() + ")].asSubject").value(true))
                .andExpect(jsonPath("$.data[?(@.item.id == " + theirs.id() + ")].item.kind").value("MISSING_LINE"))
                .andExpect(jsonPath("$.data[?(@.item.id == " + others.id() + ")]").isEmpty());
        mvc.perform(get("/api/drift")).andExpect(status().isUnauthorized());
    }
}
