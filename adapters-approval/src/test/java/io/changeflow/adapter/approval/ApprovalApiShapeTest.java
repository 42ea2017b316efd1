package io.changeflow.adapter.approval;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.changeflow.application.port.out.Approvals.ApprovalForm;
import io.changeflow.application.port.out.Approvals.Ticket;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.domain.request.OperationId;
import io.changeflow.sandbox.approval.ApprovalSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the approval system's ticket payload (docs/external-systems-approval.md, "Calls"): the adapter
 * reads the documented payloads served by WireMock, and the simulator's answers carry every documented
 * field with the documented JSON type, so the simulator cannot drift from the documented shape.
 */
@ApprovalSystemTest
class ApprovalApiShapeTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static WireMockServer wiremock;
    private static HttpApprovals againstWireMock;

    @LocalServerPort
    int port;
    @Autowired
    ApprovalSimulator simulator;

    @BeforeAll
    static void start() {
        wiremock = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wiremock.start();
        againstWireMock = HttpApprovals.create(ApprovalProperties.defaults(), wiremock::baseUrl, RestClient.builder());
    }

    @AfterAll
    static void stop() {
        againstWireMock.close();
        wiremock.stop();
    }

    @AfterEach
    void reset() {
        wiremock.resetAll();
        simulator.reset();
    }

    @Test
    void theAdapterReadsTheDocumentedDecidedTicket() {
        var id = "0a0a0000-0000-4000-8000-000000000042";
        wiremock.stubFor(get(urlPathEqualTo("/api/approvals/" + id)).willReturn(json(200, "ticket-approved.json")));

        var ticket = againstWireMock.read(OperationId.of(id));

        assertThat(ticket).isEqualTo(new Ticket(TicketStatus.APPROVED, Optional.of("APR-000042"),
                Optional.of("apr-cb-3f1c2a9e-0d4b-4a51-9a0e-6c1f2b7d8e90"), Map.of("mrId", "12"), Optional.of("amy")));
    }

    @Test
    void theAdapterReadsTheDocumentedPendingTicketFromSubmitAndRead() {
        var id = "0a0a0000-0000-4000-8000-000000000043";
        wiremock.stubFor(post(urlPathEqualTo("/api/approvals")).willReturn(json(201, "ticket-pending.json")));
        wiremock.stubFor(get(urlPathEqualTo("/api/approvals/" + id)).willReturn(json(200, "ticket-pending.json")));
        var expected = new Ticket(TicketStatus.PENDING, Optional.of("APR-000043"), Optional.empty(), Map.of());

        var submitted = againstWireMock.submit(new ApprovalForm(OperationId.of(id), "bob", "bob", "db-prod-readonly",
                "on call", Optional.empty(), Map.of()));

        assertThat(submitted).isEqualTo(expected);
        assertThat(againstWireMock.read(OperationId.of(id))).isEqualTo(expected);
    }

    @Test
    void notFoundIsUnknownAndA503IsTransient() {
        var unknown = "0a0a0000-0000-4000-8000-000000000044";
        var failing = "0a0a0000-0000-4000-8000-000000000045";
        wiremock.stubFor(get(urlPathEqualTo("/api/approvals/" + unknown)).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody("{\"error\":\"NOT_FOUND\"}")));
        wiremock.stubFor(get(urlPathEqualTo("/api/approvals/" + failing)).willReturn(aResponse().withStatus(503)));

        assertThat(againstWireMock.read(OperationId.of(unknown))).isEqualTo(Ticket.unknown());
        var failure = catchThrowableOfType(ExternalCallException.class, () -> againstWireMock.read(OperationId.of(failing)));
        assertThat(failure.status()).isEqualTo(503);
        assertThat(failure.isTransient()).isTrue();
    }

    @Test
    void theSimulatorServesEveryDocumentedFieldWithItsType() {
        var id = UUID.randomUUID().toString();
        var approvals = HttpApprovals.create(ApprovalProperties.defaults(), () -> "http://localhost:" + port + "/sim/approval",
                RestClient.builder());
        try {
            var pending = approvals.submit(new ApprovalForm(OperationId.of(id), "alice", "alice", "db-prod-readonly",
                    "incident 42", Optional.of(Instant.parse("2026-12-04T17:00:00Z")), Map.of("mrId", "12")));
            assertSameShape(raw(id), fixture("ticket-pending.json"), false);
            simulator.callbacks().loseNext(1);
            simulator.decide(pending.ticket().orElseThrow(), true, "amy");

            assertSameShape(raw(id), fixture("ticket-approved.json"), true);
            assertThat(approvals.read(OperationId.of(id)).status()).isEqualTo(TicketStatus.APPROVED);
        } finally {
            approvals.close();
        }
    }

    /** Every documented field is there; with {@code exactTypes}, each with the documented JSON type (null included). */
    private static void assertSameShape(JsonNode actual, JsonNode documented, boolean exactTypes) {
        for (var field : documented.propertyNames()) {
            assertThat(actual.has(field)).as("field " + field + " in " + actual).isTrue();
            var expected = documented.get(field);
            if (exactTypes || !expected.isNull()) {
                assertThat(actual.get(field).getNodeType()).as("type of " + field).isEqualTo(expected.getNodeType());
            }
        }
    }

    private JsonNode raw(String operationId) {
        try {
            var answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/sim/approval/api/approvals/" + operationId)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode fixture(String name) {
        return JSON.readTree(body(name));
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(int status, String fixture) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body(fixture));
    }

    private static String body(String name) {
        try (var in = ApprovalApiShapeTest.class.getResourceAsStream("/approval/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
