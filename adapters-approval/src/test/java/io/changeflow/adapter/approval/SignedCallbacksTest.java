package io.changeflow.adapter.approval;

import static io.changeflow.adapter.approval.VerifyingReceiver.mentioning;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.Approvals.ApprovalForm;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.CallbackAuthenticity.Verdict;
import io.changeflow.domain.request.OperationId;
import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.sandbox.deploy.DeployPipelineSimulator;
import io.changeflow.sandbox.fault.Faults;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The simulators' callbacks as the application receives them: signed so that this adapter's
 * verifier accepts them with the configured secret of the right source, and no other.
 */
@ApprovalSystemTest
class SignedCallbacksTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @LocalServerPort
    int port;
    @Autowired
    Approvals approvals;
    @Autowired
    CallbackAuthenticity authenticity;
    @Autowired
    ApprovalSimulator approvalSimulator;
    @Autowired
    DeployPipelineSimulator deploySimulator;
    @Autowired
    Faults faults;
    @Autowired
    VerifyingReceiver receiver;

    @AfterEach
    void tearDown() {
        faults.clear();
        approvalSimulator.mode(ApprovalSimulator.Mode.MANUAL);
        approvalSimulator.reset();
        deploySimulator.reset();
        receiver.clear();
    }

    @Test
    void anInboxDecisionSendsACallbackTheVerifierAccepts() throws Exception {
        var operationId = UUID.randomUUID().toString();
        var ticket = approvals.submit(new ApprovalForm(OperationId.of(operationId), "alice", "alice", "db-prod-readonly",
                "incident 42", Optional.empty(), Map.of("mrId", "31"))).ticket().orElseThrow();

        var answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/sim/approval/inbox/" + ticket + "/decision"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"decision\": \"APPROVE\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        var callback = receiver.await(mentioning(operationId), 1, WAIT).getFirst();
        assertThat(callback.verdict()).isEqualTo(Verdict.VALID);
        assertThat(callback.text()).contains("\"result\":\"APPROVED\"", "\"mrId\":\"31\"", "\"requestId\":");
        assertThat(authenticity.verify(Source.DEPLOY, callback.headers(), callback.body()))
                .as("signed with the approval secret only").isEqualTo(Verdict.INVALID);
    }

    @Test
    void theAutoApprovalCallbackIsSigned() {
        approvalSimulator.mode(ApprovalSimulator.Mode.AUTO);
        var operationId = UUID.randomUUID().toString();

        approvals.submit(new ApprovalForm(OperationId.of(operationId), "bob", "bob", "db-prod-readonly", "on call",
                Optional.empty(), Map.of()));

        var callback = receiver.await(mentioning(operationId), 1, WAIT).getFirst();
        assertThat(callback.verdict()).isEqualTo(Verdict.VALID);
        assertThat(callback.text()).contains("\"result\":\"APPROVED\"");
    }

    @Test
    void duplicateDeliveriesAreBothAuthenticWithTheSameIdentity() {
        approvalSimulator.callbacks().duplicateNext(1);
        var operationId = UUID.randomUUID().toString();
        var ticket = approvals.submit(new ApprovalForm(OperationId.of(operationId), "alice", "alice", "db-prod-readonly",
                "incident 42", Optional.empty(), Map.of())).ticket().orElseThrow();

        approvalSimulator.decide(ticket, false, "test");

        var both = receiver.await(mentioning(operationId), 2, WAIT);
        assertThat(both).extracting(VerifyingReceiver.Received::verdict).containsOnly(Verdict.VALID);
        assertThat(both.get(0).headers().get("webhook-id")).isEqualTo(both.get(1).headers().get("webhook-id"));
        assertThat(both.get(0).text()).isEqualTo(both.get(1).text());
    }

    @Test
    void deployCallbacksAreSignedWithTheDeploySecret() {
        var project = "platform/signed-" + UUID.randomUUID();
        var operationId = UUID.randomUUID().toString();

        deploySimulator.merged(project, 5, "Changeflow-Operation: " + operationId);

        var callback = receiver.await(mentioning(project), 1, WAIT).getFirst();
        assertThat(callback.source()).isEqualTo(Source.DEPLOY);
        assertThat(callback.verdict()).isEqualTo(Verdict.VALID);
        assertThat(callback.text()).contains("\"mrIid\":5", "\"status\":\"success\"", operationId);
        assertThat(authenticity.verify(Source.APPROVAL, callback.headers(), callback.body())).isEqualTo(Verdict.INVALID);
    }
}
