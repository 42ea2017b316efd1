package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** Signed callbacks: verified on the raw bytes before anything is parsed or stored, then the use cases. */
class CallbacksWebTest extends WebTestSupport {

    private static MockHttpServletRequestBuilder approval() {
        return post("/callbacks/approval");
    }

    private static MockHttpServletRequestBuilder deploy() {
        return post("/callbacks/deploy");
    }

    private String decision(String requestId, OperationId id, String result) {
        return "{\"requestId\":\"" + requestId + "\",\"operationId\":\"" + id.value() + "\",\"result\":\"" + result
                + "\",\"ext\":{\"mrId\":\"" + app.mr(id).iid() + "\"}}";
    }

    private static String newRequestId() {
        return "apr-cb-" + UUID.randomUUID();
    }

    /** A request awaiting its approver, a new requestId, its APPROVED decision and the state writes so far. */
    private record Delivery(OperationId id, String requestId, String body, int writes) {}

    private Delivery anApprovalDelivery() {
        var id = awaitingApproval();
        var requestId = newRequestId();
        var writes = app.operations.writes();
        return new Delivery(id, requestId, decision(requestId, id, "APPROVED"), writes);
    }

    /** The use case never saw the delivery: no state write, and its requestId is still unknown to the inbox. */
    private void assertNothingProcessed(Delivery delivery) {
        assertThat(app.operations.writes()).isEqualTo(delivery.writes());
        assertThat(app.op(delivery.id()).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.inbox.firstDelivery(HandleApprovalCallback.SOURCE, delivery.requestId())).as("never recorded").isTrue();
        app.inbox.forget(HandleApprovalCallback.SOURCE, delivery.requestId());
    }

    private static void expectInvalidSignature(ResultActions result) throws Exception {
        result.andExpect(answers(status().isUnauthorized(), "INVALID_SIGNATURE"))
                .andExpect(jsonPath("$.data").value(Matchers.nullValue()));
    }

    @Test
    void aValidlySignedApprovalIsProcessedAndMovesTheRequestOn() throws Exception {
        var id = awaitingApproval();
        mvc.perform(webhooks.approval(decision(newRequestId(), id, "APPROVED")).applyTo(approval()))
                .andExpect(answers(status().isOk(), "PROCESSED"))
                .andExpect(jsonPath("$.traceId").isNotEmpty());
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGING);
    }

    /** Issue 32 item 5: {@code decidedBy} names the approver; the requester's own approval does not count. */
    @Test
    void anApprovalDecidedByTheRequesterDoesNotCountAndTheRequestSaysWhy() throws Exception {
        var id = awaitingApproval();
        var requester = app.op(id).requester();
        var body = decision(newRequestId(), id, "APPROVED").replace("}}", "},\"decidedBy\":\"" + requester + "\"}");

        mvc.perform(webhooks.approval(body).applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));

        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.op(id).detail()).contains("does not count", "the requester");
        mvc.perform(webhooks.approval(decision(newRequestId(), id, "APPROVED").replace("}}", "},\"decidedBy\":\"amy\"}"))
                .applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGING);
    }

    @Test
    void theSameDeliveryAgainIsDuplicateAndALateOneForAFinishedWaitIsIgnoredStale() throws Exception {
        var id = awaitingApproval();
        var signed = webhooks.approval(decision(newRequestId(), id, "REJECTED"));
        mvc.perform(signed.applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.REJECTED);

        mvc.perform(signed.applyTo(approval())).andExpect(answers(status().isOk(), "DUPLICATE"));
        mvc.perform(webhooks.approval(decision(newRequestId(), id, "APPROVED")).applyTo(approval()))
                .andExpect(answers(status().isOk(), "IGNORED_STALE"));
        assertThat(app.op(id).binding()).contains(BindingStatus.REJECTED);
    }

    @Test
    void aCallbackForAnUnknownOperationIsIgnoredStale() throws Exception {
        var body = "{\"requestId\":\"" + newRequestId() + "\",\"operationId\":\"" + InMemoryChangeflow.newOperationId()
                + "\",\"result\":\"APPROVED\"}";
        mvc.perform(webhooks.approval(body).applyTo(approval())).andExpect(answers(status().isOk(), "IGNORED_STALE"));
    }

    @Test
    void aTamperedBodyIs401AndNothingIsProcessed() throws Exception {
        var delivery = anApprovalDelivery();
        var rejected = decision(delivery.requestId(), delivery.id(), "REJECTED");
        var signed = webhooks.approval(rejected);
        expectInvalidSignature(mvc.perform(signed.withBody(delivery.body()).applyTo(approval())));
        expectInvalidSignature(mvc.perform(signed.withBody(rejected + " ").applyTo(approval())));
        assertNothingProcessed(delivery);
        assertThat(registry.count(MeterNames.CALLBACKS_REFUSED, "source", "approval", "reason", "invalid_signature"))
                .as("what the signature-failure alert counts").isEqualTo(2);
    }

    @Test
    void missingOrMalformedSignatureHeadersAre401AndNothingIsProcessed() throws Exception {
        var delivery = anApprovalDelivery();
        var body = delivery.body();
        var signed = webhooks.approval(body);
        expectInvalidSignature(mvc.perform(approval().contentType("application/json").content(body)));
        expectInvalidSignature(mvc.perform(approval().contentType("application/json").content(body)
                .header("webhook-id", signed.id()).header("webhook-timestamp", signed.timestamp())));
        expectInvalidSignature(mvc.perform(approval().contentType("application/json").content(body)
                .header("webhook-id", signed.id()).header("webhook-signature", signed.signature())));
        expectInvalidSignature(mvc.perform(approval().contentType("application/json").content(body)
                .header("webhook-id", signed.id()).header("webhook-timestamp", signed.timestamp())
                .header("webhook-signature", "v1,not-base64!!")));
        expectInvalidSignature(mvc.perform(approval().contentType("application/json").content(body)
                .header("webhook-id", signed.id()).header("webhook-id", "msg_other")
                .header("webhook-timestamp", signed.timestamp()).header("webhook-signature", signed.signature())));
        assertNothingProcessed(delivery);
    }

    @Test
    void aSignatureMadeWithAnotherSecretIs401AndNothingIsProcessed() throws Exception {
        var delivery = anApprovalDelivery();
        var body = delivery.body();
        expectInvalidSignature(mvc.perform(TestWebhooks.sign(TestWebhooks.WRONG_SECRET, body, clock.instant()).applyTo(approval())));
        expectInvalidSignature(mvc.perform(TestWebhooks.sign(TestWebhooks.DEPLOY_SECRET, body, clock.instant()).applyTo(approval())));
        assertNothingProcessed(delivery);
    }

    @Test
    void aTimestampOutsideTheFiveMinuteToleranceIs401AndNothingIsProcessed() throws Exception {
        var delivery = anApprovalDelivery();
        var body = delivery.body();
        expectInvalidSignature(mvc.perform(TestWebhooks.sign(TestWebhooks.APPROVAL_SECRET, body,
                clock.instant().minus(Duration.ofMinutes(6))).applyTo(approval())));
        expectInvalidSignature(mvc.perform(TestWebhooks.sign(TestWebhooks.APPROVAL_SECRET, body,
                clock.instant().plus(Duration.ofMinutes(6))).applyTo(approval())));
        assertNothingProcessed(delivery);
        mvc.perform(TestWebhooks.sign(TestWebhooks.APPROVAL_SECRET, body, clock.instant().minus(Duration.ofMinutes(4)))
                .applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));
    }

    @Test
    void duringASecretRotationEitherSecretIsAccepted() throws Exception {
        webhooks.secrets(Source.APPROVAL, TestWebhooks.WRONG_SECRET, TestWebhooks.APPROVAL_SECRET);
        var id = awaitingApproval();
        var old = webhooks.approval(decision(newRequestId(), id, "APPROVED"));
        var rotated = TestWebhooks.sign(TestWebhooks.WRONG_SECRET, "x", clock.instant());
        var bothSignatures = new TestWebhooks.Signed(old.id(), old.timestamp(), rotated.signature() + " " + old.signature(),
                old.body());
        mvc.perform(bothSignatures.applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));
    }

    @Test
    void withoutAConfiguredSecretEveryCallbackIsRefused503AndNothingIsProcessed() throws Exception {
        var delivery = anApprovalDelivery();
        webhooks.secrets(Source.APPROVAL);
        mvc.perform(webhooks.approval(delivery.body()).applyTo(approval()))
                .andExpect(answers(status().isServiceUnavailable(), "UNAVAILABLE"));
        mvc.perform(approval().contentType("application/json").content(delivery.body()))
                .andExpect(status().isServiceUnavailable());
        assertNothingProcessed(delivery);
        assertThat(registry.count(MeterNames.CALLBACKS_REFUSED, "source", "approval", "reason", "not_configured"))
                .isEqualTo(2);
        assertThat(registry.count(MeterNames.CALLBACKS_REFUSED, "source", "approval", "reason", "invalid_signature"))
                .isZero();
    }

    @Test
    void aSignedBodyThatIsNotTheExpectedJsonIs400() throws Exception {
        mvc.perform(webhooks.approval("{not json").applyTo(approval()))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"));
        mvc.perform(webhooks.approval("[1,2]").applyTo(approval())).andExpect(status().isBadRequest());
        mvc.perform(webhooks.approval("{\"requestId\":\"r1\",\"result\":\"MAYBE\"}").applyTo(approval()))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("result", "INVALID_VALUE"));
        mvc.perform(webhooks.approval("{\"operationId\":\"x\"}").applyTo(approval()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='requestId')].code").value("REQUIRED"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='result')].code").value("REQUIRED"));
        mvc.perform(webhooks.deploy("{\"projectId\":\"p\",\"mrIid\":\"twelve\"}").applyTo(deploy()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("mrIid"));
    }

    @Test
    void aProcessingFailureIs500SoTheSenderRetriesAndTheRetryIsProcessed() throws Exception {
        var id = awaitingApproval();
        var signed = webhooks.approval(decision(newRequestId(), id, "APPROVED"));
        app.operations.failNextWrite(new IllegalStateException("UPDATE binding SET status = 'MERGING' failed: deadlock"));
        mvc.perform(signed.applyTo(approval()))
                .andExpect(answers(status().isInternalServerError(), "INTERNAL_ERROR"));
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);

        mvc.perform(signed.applyTo(approval())).andExpect(answers(status().isOk(), "PROCESSED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGING);
    }

    @Test
    void aValidDeployReportAdvancesTheMergedRequestAndItsRepeatIsDuplicate() throws Exception {
        var id = merged();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        var body = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"mrIid\":" + app.mr(id).iid()
                + ",\"status\":\"success\",\"operationIds\":[\"" + id.value() + "\"]}";
        var signed = webhooks.deploy(body);

        mvc.perform(signed.applyTo(deploy()))
                .andExpect(answers(status().isOk(), "PROCESSED"))
                .andExpect(jsonPath("$.data.advanced").value(1));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        mvc.perform(signed.applyTo(deploy()))
                .andExpect(answers(status().isOk(), "DUPLICATE"))
                .andExpect(jsonPath("$.data.advanced").value(0));
    }

    @Test
    void aDeployReportSignedForTheApprovalSourceIs401AndNothingIsStored() throws Exception {
        var reports = app.inbox.deploys().size();
        var body = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"mrIid\":999,\"status\":\"success\"}";
        expectInvalidSignature(mvc.perform(webhooks.approval(body).applyTo(deploy())));
        assertThat(app.inbox.deploys()).hasSize(reports);
    }

    @Test
    void overRealHttpTheRawBytesAreVerifiedExactlyAsSent() throws Exception {
        var id = awaitingApproval();
        var body = "{ \"requestId\" : \"" + newRequestId() + "\",\n  \"operationId\": \"" + id.value()
                + "\", \"result\": \"WITHDRAWN\", \"note\": \"caf\u00e9 \u2713\" }";
        var signed = webhooks.approval(body);
        var tampered = send(signed.withBody(body.replace("WITHDRAWN", "APPROVED")).applyTo(HttpRequest.newBuilder(uri("/callbacks/approval"))));
        assertAnswer(tampered, 401, "INVALID_SIGNATURE");
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);

        var accepted = send(signed.applyTo(HttpRequest.newBuilder(uri("/callbacks/approval"))));
        assertAnswer(accepted, 200, "PROCESSED");
        assertThat(app.op(id).binding()).contains(BindingStatus.REJECTED);
    }

    @Test
    void deployCallbacksWithoutOperationIdsAdvanceByTheMergeRequest() throws Exception {
        var id = merged();
        var body = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"mrIid\":" + app.mr(id).iid() + ",\"status\":\"success\"}";
        mvc.perform(webhooks.deploy(body).applyTo(deploy())).andExpect(status().isOk()).andExpect(jsonPath("$.data.advanced").value(1));
        assertThat(app.inbox.deploys()).anySatisfy(r -> assertThat(r.mrIid()).isEqualTo(app.mr(id).iid()));
    }

    @Test
    void deployCallbacksListingAnotherMergeRequestsOperationIgnoreItAndCountIt() throws Exception {
        var own = merged();
        var other = merged();
        var body = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"mrIid\":" + app.mr(own).iid()
                + ",\"status\":\"success\",\"operationIds\":[\"" + other.value() + "\",\"" + own.value() + "\",\"junk\"]}";

        mvc.perform(webhooks.deploy(body).applyTo(deploy())).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.advanced").value(1)).andExpect(jsonPath("$.data.ignored").value(2));

        assertThat(app.op(own).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(other).binding()).contains(BindingStatus.MERGED);
        assertThat(registry.count(MeterNames.DEPLOY_IDS_IGNORED)).isEqualTo(2);
    }

    /** Issue 37: a deploy of main at a commit covers the merges that commit holds; a bad or ambiguous body is a 400. */
    @Test
    void aDeployReportOfMainAtACommitAdvancesWhatItHoldsAndABadOrAmbiguousBodyIs400() throws Exception {
        var first = merged();
        var second = merged();
        var sha = app.gitlab.mergedCommit(FakeTargets.PROJECT, app.mr(first).iid()).orElseThrow();
        var body = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"ref\":\"main\",\"sha\":\"" + sha.toUpperCase()
                + "\",\"status\":\"success\",\"operationIds\":[\"" + first.value() + "\",\"" + second.value() + "\"]}";

        mvc.perform(webhooks.deploy(body).applyTo(deploy())).andExpect(answers(status().isOk(), "PROCESSED"))
                .andExpect(jsonPath("$.data.advanced").value(1)).andExpect(jsonPath("$.data.ignored").value(1));

        assertThat(app.op(first).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(second).binding()).as("merged after the deployed commit").contains(BindingStatus.MERGED);
        assertThat(registry.count(MeterNames.DEPLOY_IDS_IGNORED)).isEqualTo(1);

        var project = "{\"projectId\":\"" + FakeTargets.PROJECT + "\",\"status\":\"success\"";
        mvc.perform(webhooks.deploy(project + ",\"mrIid\":" + app.mr(second).iid() + ",\"sha\":\"" + sha + "\"}")
                        .applyTo(deploy()))
                .andExpect(status().isBadRequest()).andExpect(firstFieldError("sha", "INVALID_VALUE"));
        mvc.perform(webhooks.deploy(project + ",\"sha\":\"abc123\"}").applyTo(deploy()))
                .andExpect(status().isBadRequest()).andExpect(firstFieldError("sha", "INVALID_FORMAT"));
        mvc.perform(webhooks.deploy(project + ",\"sha\":\"" + sha + "\",\"ref\":\"main\\nforged\"}").applyTo(deploy()))
                .andExpect(status().isBadRequest()).andExpect(firstFieldError("ref", "INVALID_FORMAT"));
        mvc.perform(webhooks.deploy(project + "}").applyTo(deploy()))
                .andExpect(status().isBadRequest()).andExpect(firstFieldError("mrIid", "REQUIRED"));
        assertThat(app.op(second).binding()).contains(BindingStatus.MERGED);
    }
}
