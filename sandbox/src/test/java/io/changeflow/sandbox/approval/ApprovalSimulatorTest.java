package io.changeflow.sandbox.approval;

import static io.changeflow.sandbox.support.CallbackRecorder.approvalFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator.Mode;
import io.changeflow.sandbox.approval.ApprovalSimulator.Result;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.support.SimulatorHttpTest;
import io.changeflow.sandbox.webhook.WebhookSender;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ApprovalSimulatorTest extends SimulatorHttpTest {

    @Autowired
    ApprovalSimulator simulator;

    @AfterEach
    void tearDown() {
        faults.clear();
        simulator.mode(Mode.MANUAL);
        simulator.reset();
        recorder.clear();
    }

    @Test
    void submitIsIdempotentPerOperationId() {
        var operationId = UUID.randomUUID().toString();

        var first = http.post("/sim/approval/api/approvals", form(operationId, "12"));
        var second = http.post("/sim/approval/api/approvals", form(operationId, "12"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("ticket").asString()).isEqualTo(first.json().get("ticket").asString());
        assertThat(first.json().get("status").asString()).isEqualTo("PENDING");
        assertThat(first.json().get("ext").get("mrId").asString()).isEqualTo("12");
        assertThat(simulator.pending()).hasSize(1);
    }

    @Test
    void keepsExtensionFieldsAsTextAndDropsNullOnes() {
        var operationId = UUID.randomUUID().toString();

        var answer = http.post("/sim/approval/api/approvals", """
                {"operationId": "%s", "requester": "alice", "target": "db", "ext": {"mrId": 12, "note": null}}"""
                .formatted(operationId));

        assertThat(answer.status()).isEqualTo(201);
        assertThat(simulator.byOperationId(operationId).orElseThrow().form().ext()).isEqualTo(Map.of("mrId", "12"));
    }

    @Test
    void rejectsAFormWithoutRequiredFields() {
        var answer = http.post("/sim/approval/api/approvals", """
                {"operationId": "%s", "requester": " ", "target": "db"}""".formatted(UUID.randomUUID()));

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.json().get("error").asString()).isEqualTo("INVALID_FORM");
        assertThat(simulator.pending()).isEmpty();
    }

    @Test
    void manualModeWaitsForTheInboxDecision() {
        var operationId = UUID.randomUUID().toString();
        var ticket = ticketFor(operationId);

        var inbox = http.get("/sim/approval/inbox");
        assertThat(inbox.status()).isEqualTo(200);
        assertThat(inbox.json().get("code").asString()).isEqualTo("OK");
        assertThat(inbox.json().get("traceId").asString()).isNotBlank();
        assertThat(inbox.json().get("data").get(0).get("ticket").asString()).isEqualTo(ticket);
        assertThat(inbox.json().get("data").get(0).get("requester").asString()).isEqualTo("alice");
        assertThat(recorder.received(approvalFor(operationId))).isEmpty();

        var decision = http.post("/sim/approval/inbox/" + ticket + "/decision", "{\"decision\": \"REJECT\"}");

        assertThat(decision.status()).isEqualTo(200);
        assertThat(decision.json().get("code").asString()).isEqualTo("DECIDED");
        var callback = recorder.await(approvalFor(operationId), 1, WAIT).getFirst();
        var body = JSON.readTree(callback.body());
        assertThat(body.get("result").asString()).isEqualTo("REJECTED");
        assertThat(body.get("operationId").asString()).isEqualTo(operationId);
        assertThat(body.get("requestId").asString()).isNotBlank();
        assertThat(body.get("ext").isEmpty()).isTrue();
        assertThat(callback.header("webhook-id")).startsWith("msg_");
        assertThat(callback.header("webhook-signature")).startsWith("v1,");
        assertThat(http.get("/sim/approval/inbox").json().get("data").isEmpty()).isTrue();
    }

    @Test
    void inboxRefusesASecondDecisionAnUnknownTicketAndAnUnknownDecision() {
        var operationId = UUID.randomUUID().toString();
        var ticket = ticketFor(operationId);

        assertThat(http.post("/sim/approval/inbox/" + ticket + "/decision", "{\"decision\": \"MAYBE\"}").status())
                .isEqualTo(400);
        assertThat(http.post("/sim/approval/inbox/" + ticket + "/decision", "not json").status()).isEqualTo(400);
        assertThat(http.post("/sim/approval/inbox/" + ticket + "/decision", "{\"decision\": \"APPROVE\"}").status())
                .isEqualTo(200);
        var again = http.post("/sim/approval/inbox/" + ticket + "/decision", "{\"decision\": \"REJECT\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("code").asString()).isEqualTo("ALREADY_DECIDED");
        assertThat(http.post("/sim/approval/inbox/APR-999999/decision", "{\"decision\": \"APPROVE\"}").status())
                .isEqualTo(404);
        assertThat(recorder.await(approvalFor(operationId), 1, WAIT).getFirst().text()).contains("\"APPROVED\"");
    }

    @Test
    void autoModeApprovesByItselfAfterTheDelay() {
        simulator.mode(Mode.AUTO);
        var operationId = UUID.randomUUID().toString();

        var submitted = http.post("/sim/approval/api/approvals", form(operationId, "7"));

        assertThat(submitted.json().get("status").asString()).isEqualTo("PENDING");
        var callback = recorder.await(approvalFor(operationId), 1, WAIT).getFirst();
        var body = JSON.readTree(callback.body());
        assertThat(body.get("result").asString()).isEqualTo("APPROVED");
        assertThat(body.get("ext").get("mrId").asString()).isEqualTo("7");
        assertThat(simulator.byOperationId(operationId).orElseThrow().status()).isEqualTo(ApprovalSimulator.Status.APPROVED);
        assertThat(simulator.byOperationId(operationId).orElseThrow().decidedBy()).isEqualTo("auto-approver");
    }

    @Test
    void withdrawCallsBackWithdrawnAndLeavesDecidedTicketsAlone() {
        var pending = UUID.randomUUID().toString();
        var decided = UUID.randomUUID().toString();
        http.post("/sim/approval/api/approvals", form(pending, null));
        var decidedTicket = ticketFor(decided);
        simulator.decide(decidedTicket, true, "test");

        var withdrawn = http.post("/sim/approval/api/approvals/" + pending + "/withdraw", "");
        var unchanged = http.post("/sim/approval/api/approvals/" + decided + "/withdraw", "");
        var unknown = http.post("/sim/approval/api/approvals/" + UUID.randomUUID() + "/withdraw", "");

        assertThat(withdrawn.status()).isEqualTo(200);
        assertThat(withdrawn.json().get("status").asString()).isEqualTo("WITHDRAWN");
        assertThat(unchanged.json().get("status").asString()).isEqualTo("APPROVED");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(recorder.await(approvalFor(pending), 1, WAIT).getFirst().text()).contains("\"WITHDRAWN\"");
        assertThat(http.get("/sim/approval/api/approvals/" + pending).json().get("status").asString())
                .isEqualTo("WITHDRAWN");
    }

    @Test
    void injectedErrorAnswersWithoutApplyingTheSubmission() {
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 1, 0, 0, 0, 0, 0));
        var operationId = UUID.randomUUID().toString();

        var answer = http.post("/sim/approval/api/approvals", form(operationId, null));

        assertThat(answer.status()).isIn(500, 503);
        assertThat(simulator.byOperationId(operationId)).isEmpty();
    }

    @Test
    void lostResponseAppliesTheSubmissionAndTheRetryGetsTheSameTicket() {
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 0, 1, 0, 0, 0, 0));
        var operationId = UUID.randomUUID().toString();

        var lost = http.post("/sim/approval/api/approvals", form(operationId, null));
        faults.clear();
        var retry = http.post("/sim/approval/api/approvals", form(operationId, null));

        assertThat(lost.status()).isEqualTo(504);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.json().get("ticket").asString())
                .isEqualTo(simulator.byOperationId(operationId).orElseThrow().ticket());
        assertThat(simulator.pending()).hasSize(1);
    }

    @Test
    void earlyCallbackArrivesBeforeTheSubmitCallAnswers() {
        simulator.earlyCallbacks(Result.APPROVED);
        var submitAnswered = new AtomicBoolean(false);
        var answeredWhenCalledBack = new AtomicBoolean(true);
        recorder.onReceive(() -> answeredWhenCalledBack.set(submitAnswered.get()));
        var operationId = UUID.randomUUID().toString();

        var answer = http.post("/sim/approval/api/approvals", form(operationId, null));
        submitAnswered.set(true);

        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.json().get("status").asString()).isEqualTo("APPROVED");
        assertThat(recorder.received(approvalFor(operationId))).hasSize(1);
        assertThat(answeredWhenCalledBack).isFalse();
    }

    @Test
    void duplicateDeliveryRepeatsTheSameRequestId() {
        simulator.callbacks().duplicateNext(1);
        var operationId = UUID.randomUUID().toString();
        var ticket = ticketFor(operationId);

        simulator.decide(ticket, true, "test");

        var deliveries = recorder.await(approvalFor(operationId), 2, WAIT);
        assertThat(deliveries).hasSize(2);
        assertThat(JSON.readTree(deliveries.get(0).body()).get("requestId").asString())
                .isEqualTo(JSON.readTree(deliveries.get(1).body()).get("requestId").asString());
        assertThat(deliveries.get(0).header("webhook-id")).isEqualTo(deliveries.get(1).header("webhook-id"));
    }

    @Test
    void lateDeliveryIsOvertakenByALaterDecision() {
        simulator.callbacks().delayNext(1, Duration.ofMillis(700));
        var late = UUID.randomUUID().toString();
        var prompt = UUID.randomUUID().toString();

        approveInOrder(late, prompt);

        var both = recorder.await(approvalFor(late).or(approvalFor(prompt)), 2, WAIT);
        assertThat(both.get(0).text()).contains(prompt);
        assertThat(both.get(1).text()).contains(late);
    }

    @Test
    void lostCallbackIsNeverDelivered() {
        simulator.callbacks().loseNext(1);
        var lost = UUID.randomUUID().toString();
        var delivered = UUID.randomUUID().toString();

        approveInOrder(lost, delivered);

        recorder.await(approvalFor(delivered), 1, WAIT);
        assertThat(recorder.received(approvalFor(lost))).isEmpty();
        assertThat(simulator.byOperationId(lost).orElseThrow().status()).isEqualTo(ApprovalSimulator.Status.APPROVED);
    }

    @Test
    void lostCallbackRateOfTheFaultSettingsLosesCallbacks() {
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 0, 0, 0, 0, 1, 0));
        var lost = UUID.randomUUID().toString();
        var lostTicket = ticketFor(lost);
        simulator.decide(lostTicket, true, "test");
        faults.clear();
        var delivered = UUID.randomUUID().toString();
        var deliveredTicket = ticketFor(delivered);

        simulator.decide(deliveredTicket, true, "test");

        recorder.await(approvalFor(delivered), 1, WAIT);
        assertThat(recorder.received(approvalFor(lost))).isEmpty();
    }

    @Test
    void failedDeliveriesAreRetriedWithTheSameWebhookId() {
        recorder.failNext(2);
        var operationId = UUID.randomUUID().toString();
        var ticket = ticketFor(operationId);

        simulator.decide(ticket, false, "test");

        // the receiver answers 503, 503, then 200: three attempts, the last one succeeds
        var attempts = recorder.await(approvalFor(operationId), 3, WAIT);
        var messageId = attempts.getFirst().header("webhook-id");
        assertThat(attempts).extracting(r -> r.header("webhook-id")).containsOnly(messageId);
        assertThat(simulator.deliveries()).filteredOn(a -> a.messageId().equals(messageId))
                .extracting(WebhookSender.Attempt::status).startsWith(503, 503);
    }

    @Test
    void controlsEndpointSwitchesModeAndEarlyCallbacks() {
        var changed = http.put("/sandbox/faults/approval/controls", """
                {"mode": "auto", "earlyCallbacks": "REJECTED", "loseNext": 0}""");
        var invalid = http.put("/sandbox/faults/approval/controls", "{\"mode\": \"sometimes\"}");

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().get("data").get("mode").asString()).isEqualTo("auto");
        assertThat(changed.json().get("data").get("earlyCallbacks").asString()).isEqualTo("REJECTED");
        assertThat(simulator.mode()).isEqualTo(Mode.AUTO);
        assertThat(simulator.earlyCallbacks()).contains(Result.REJECTED);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.json().get("code").asString()).isEqualTo("INVALID_REQUEST");
    }

    /** Submits a request for {@code operationId} (no merge request) and answers its ticket. */
    private String ticketFor(String operationId) {
        return http.post("/sim/approval/api/approvals", form(operationId, null)).json().get("ticket").asString();
    }

    /** Submits a request for each of {@code first} and {@code second}, then approves them in that order. */
    private void approveInOrder(String first, String second) {
        var firstTicket = ticketFor(first);
        var secondTicket = ticketFor(second);
        simulator.decide(firstTicket, true, "test");
        simulator.decide(secondTicket, true, "test");
    }

    private static String form(String operationId, String mrId) {
        var ext = mrId == null ? "{}" : "{\"mrId\": \"" + mrId + "\"}";
        return """
                {"operationId": "%s", "requester": "alice", "subject": "alice", "target": "db-prod-readonly",
                 "reason": "incident 42", "expiresAt": "2026-12-04T17:00:00Z", "ext": %s}""".formatted(operationId, ext);
    }
}
