package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.query.ShowStats;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.json.JsonMapper;

/** The operators' endpoints on the application's use cases (in-memory fakes). */
class OperationsWebTest extends WebTestSupport {

    private static final AtomicInteger PEOPLE = new AtomicInteger();
    private static final String DENIED = "{\"code\":\"ACCESS_DENIED\",\"message\":\"Access denied\",\"data\":null}";

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    private static String newPerson() {
        return "ops" + PEOPLE.incrementAndGet();
    }

    private OperationId createFailed() {
        app.gitlab.nextPipeline(PipelineStatus.RUNNING, PipelineStatus.FAILED);
        var id = app.submitAccepted(FakeTargets.SINGLE, newPerson());
        app.queue.runUntilIdle();
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
        return id;
    }

    /** The operator otto's {@code action} (retrigger, close) on the request {@code operationId}. */
    private static MockHttpServletRequestBuilder operatorPost(String operationId, String action) {
        return as(post("/ops/operations/" + operationId + "/" + action), "otto");
    }

    /** {@code action} on {@code id} is 409 ACTION_NOT_ALLOWED now, and on an unknown request 404. */
    private void assertRefusedAndUnknownIs404(OperationId id, String action) throws Exception {
        mvc.perform(operatorPost(id.value(), action)).andExpect(answers(status().isConflict(), "ACTION_NOT_ALLOWED"));
        mvc.perform(operatorPost(InMemoryChangeflow.newOperationId(), action)).andExpect(status().isNotFound());
    }

    private List<MockHttpServletRequestBuilder> everyEndpoint(OperationId id) {
        return List.of(
                get("/ops/operations"),
                get("/ops/operations/" + id.value()),
                post("/ops/operations/" + id.value() + "/retrigger"),
                post("/ops/operations/" + id.value() + "/close"),
                post("/ops/reconciliation-runs"),
                get("/ops/batches"),
                post("/ops/batch-rounds").param("partition", "ops-nothing-waits"),
                get("/ops/stats"),
                get("/ops/config"));
    }

    @Test
    void everyOperationsEndpointIs401WithoutIdentityAnd403WithoutPermissionAndRunsNothing() throws Exception {
        var id = createFailed();
        var audited = app.audit.all().size();
        var queued = app.queue.backlog();
        for (var request : everyEndpoint(id)) {
            mvc.perform(request).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        }
        for (var request : everyEndpoint(id)) {
            mvc.perform(as(request, "alice")).andExpect(status().isForbidden())
                    .andExpect(content().json(DENIED, JsonCompareMode.LENIENT));
        }
        for (var request : everyEndpoint(id)) {
            mvc.perform(as(request, "E9999")).andExpect(status().isForbidden());
        }
        assertThat(app.audit.all()).hasSize(audited);
        assertThat(app.queue.backlog()).isEqualTo(queued);
        assertThat(app.op(id).binding()).contains(BindingStatus.CREATE_FAILED);
        assertThat(auditLog.entries).isEmpty();
    }

    @Test
    void everyOperationsEndpointAnswersAnOperator() throws Exception {
        var id = createFailed();
        for (var request : everyEndpoint(id)) {
            mvc.perform(as(request, "otto")).andExpect(status().is2xxSuccessful());
        }
    }

    @Test
    void findListsRequestsByStatusAndAge() throws Exception {
        var id = awaitingApproval();
        app.clock.advance(java.time.Duration.ofMinutes(30));
        mvc.perform(as(get("/ops/operations").param("status", "approval_sent").param("stuckForSeconds", "600")
                        .param("limit", "500"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.operationId=='" + id.value() + "')].status").value("APPROVAL_SENT"))
                .andExpect(jsonPath("$.data[0].timeline").doesNotExist());
        mvc.perform(as(get("/ops/operations").param("status", "MERGED").param("stuckForSeconds", "9999999999999"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.operationId=='" + id.value() + "')]").isEmpty());
        mvc.perform(as(get("/ops/operations").param("status", "STUCK"), "otto"))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("status", "INVALID_VALUE"));

        mvc.perform(as(get("/ops/operations").param("targetKey", FakeTargets.SINGLE.value()).param("limit", "500"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.operationId=='" + id.value() + "')].targetKey").value(FakeTargets.SINGLE.value()))
                .andExpect(jsonPath("$.data[?(@.targetKey!='" + FakeTargets.SINGLE.value() + "')]").isEmpty());
        mvc.perform(as(get("/ops/operations").param("targetKey", FakeTargets.BATCHABLE.value()).param("limit", "500"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.operationId=='" + id.value() + "')]").isEmpty());
        mvc.perform(as(get("/ops/operations").param("targetKey", "Not a key"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("targetKey", "INVALID_VALUE"));
    }

    @Test
    void oneOperationShowsBothLayersHistoryAuditAndTheAllowedActions() throws Exception {
        var id = createFailed();
        mvc.perform(as(get("/ops/operations/" + id.value()), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.operationId").value(id.value()))
                .andExpect(jsonPath("$.data.step").value("CREATE_PIPELINE_FAILED"))
                .andExpect(jsonPath("$.data.hint.code").value("CONTACT_MAINTAINERS"))
                .andExpect(jsonPath("$.data.timeline").isArray())
                .andExpect(jsonPath("$.data.request").doesNotExist())
                .andExpect(jsonPath("$.data.binding.status").value("CREATE_FAILED"))
                .andExpect(jsonPath("$.data.binding.operationId").value(id.value()))
                .andExpect(jsonPath("$.data.history[0].event").value("SUBMITTED_CREATE_FIRST"))
                .andExpect(jsonPath("$.data.history[0].actor").isNotEmpty())
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.hasItem("RETRIGGER")))
                .andExpect(jsonPath("$.data.retriggerStep").value("CREATE"))
                .andExpect(jsonPath("$.data.audit").isArray());
        mvc.perform(as(get("/ops/operations/" + InMemoryChangeflow.newOperationId()), "otto"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void retriggerReRunsTheStepWhereTheRequestStoppedAsTheLoggedInOperator() throws Exception {
        var id = createFailed();
        mvc.perform(operatorPost(id.value(), "retrigger").param("reason", "pipeline fixed"))
                .andExpect(answers(status().isOk(), "RETRIGGERED"))
                .andExpect(jsonPath("$.data.operationId").value(id.value()))
                .andExpect(jsonPath("$.data.step").value("CREATE"))
                .andExpect(jsonPath("$.data.scheduled").value(true));
        assertThat(app.queue.pending(io.changeflow.application.port.out.WorkQueue.StepKind.CREATE, id.value())).isPresent();
        assertThat(app.audit.about(id.value())).last().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("RETRIGGER");
            assertThat(entry.parameters()).containsEntry("reason", "pipeline fixed").containsEntry(OperatorParameters.RESERVED, "otto");
        });
        assertThat(auditLog.entries).singleElement().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("POST /ops/operations/{operationId}/retrigger");
            assertThat(entry.subject()).isEqualTo(id.value());
        });
    }

    @Test
    void aForgedOperatorParameterNeverReachesTheUseCase() throws Exception {
        var id = createFailed();
        var before = app.audit.all().size();
        mvc.perform(operatorPost(id.value(), "retrigger").param(OperatorParameters.RESERVED, "mallory"))
                .andExpect(status().isOk());
        mvc.perform(as(post("/ops/reconciliation-runs?" + OperatorParameters.RESERVED + "=mallory"), "otto")).andExpect(status().isOk());
        mvc.perform(as(post("/ops/operations/" + id.value() + "/close").contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .content(OperatorParameters.RESERVED + "=mallory"), "otto")).andExpect(status().is2xxSuccessful());

        assertThat(app.audit.all().subList(before, app.audit.all().size())).hasSize(3).allSatisfy(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.parameters().values()).doesNotContain("mallory");
        });
        assertThat(auditLog.entries).hasSize(3).allSatisfy(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.parameters()).containsEntry(OperatorParameters.RESERVED, "otto");
        });
    }

    @Test
    void aRequestWaitingForTheApproverRetriggersTheApprovalCheckAClosedOneNothingAndUnknownIs404() throws Exception {
        var id = awaitingApproval();
        mvc.perform(operatorPost(id.value(), "retrigger"))
                .andExpect(answers(status().isOk(), "RETRIGGERED"))
                .andExpect(jsonPath("$.data.step").value("CHECK_APPROVAL"));
        app.queue.runUntilIdle();
        mvc.perform(operatorPost(id.value(), "close")).andExpect(status().isOk());
        app.queue.runUntilIdle();
        assertRefusedAndUnknownIs404(id, "retrigger");
    }

    @Test
    void aFullWorkQueueRetriggersNothingAndSaysSo() throws Exception {
        var id = createFailed();
        app.queue.capacity(app.queue.backlog());
        try {
            mvc.perform(operatorPost(id.value(), "retrigger"))
                    .andExpect(answers(status().isOk(), "NOT_SCHEDULED"))
                    .andExpect(jsonPath("$.data.scheduled").value(false));
        } finally {
            app.queue.capacity(Integer.MAX_VALUE);
        }
    }

    @Test
    void closeClosesTheMergeRequestAndTheRequestOnceAndThenRefuses() throws Exception {
        var id = awaitingApproval();
        var mr = app.mr(id);
        mvc.perform(operatorPost(id.value(), "close"))
                .andExpect(answers(status().isOk(), "CLOSED"));
        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
        assertThat(app.audit.about(id.value())).last().satisfies(e -> assertThat(e.actor()).isEqualTo("otto"));

        assertRefusedAndUnknownIs404(id, "close");
    }

    @Test
    void aMergeThatRacedTheCloseWins() throws Exception {
        var id = awaitingApproval();
        var mr = app.mr(id);
        app.gitlab.mergeExternally(mr.project(), mr.iid());
        mvc.perform(operatorPost(id.value(), "close"))
                .andExpect(answers(status().isOk(), "MERGED_WINS"));
    }

    @Test
    void aReconciliationRunAnswersHowManyItExaminedAndAdvanced() throws Exception {
        var id = awaitingApproval();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();
        app.clock.advance(java.time.Duration.ofMinutes(15));
        var body = mvc.perform(as(post("/ops/reconciliation-runs"), "otto"))
                .andExpect(answers(status().isOk(), "RECONCILED"))
                .andExpect(jsonPath("$.data.examined").value(Matchers.greaterThanOrEqualTo(1)))
                .andExpect(jsonPath("$.data.advanced").isNumber())
                .andReturn().getResponse().getContentAsString();
        assertThat(body).doesNotContain("mallory");
        assertThat(app.audit.all()).last().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("otto");
            assertThat(e.action()).isEqualTo("RECONCILE");
        });
    }

    @Test
    void theLegacyStatsMapKeepsItsFrozenShapeWithoutEnvelope() throws Exception {
        awaitingApproval();
        var expected = new ShowStats(app.operations).show(new ShowStats.Command());
        var body = mvc.perform(as(get("/ops/stats"), "otto"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andReturn().getResponse().getContentAsString();
        var json = JsonMapper.builder().build().readTree(body);
        assertThat(json.propertyNames()).containsExactly("requests", "inProgress", "validated", "failed", "rejected", "closed");
        json.forEach(value -> assertThat(value.isIntegralNumber()).isTrue());
        assertThat(json.get("requests").longValue()).isEqualTo(expected.total()).isPositive();
        assertThat(json.get("inProgress").longValue()).isEqualTo(expected.inProgress());
        assertThat(json.get("validated").longValue() + json.get("failed").longValue() + json.get("rejected").longValue()
                + json.get("closed").longValue() + json.get("inProgress").longValue()).isEqualTo(json.get("requests").longValue());
    }

    @Test
    void overRealHttpTheStatsAreARawMapForAnOperatorOnly() throws Exception {
        var anonymous = send(HttpRequest.newBuilder(uri("/ops/stats")).GET());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        var operator = send(HttpRequest.newBuilder(uri("/ops/stats")).header(CallerIdentity.USER_HEADER, "otto").GET());
        assertThat(operator.statusCode()).isEqualTo(200);
        assertThat(operator.body()).startsWith("{\"requests\":").doesNotContain("\"code\"").doesNotContain("traceId");
    }
}
