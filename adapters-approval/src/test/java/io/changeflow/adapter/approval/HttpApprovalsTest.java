package io.changeflow.adapter.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.changeflow.application.port.out.Approvals.ApprovalForm;
import io.changeflow.application.port.out.Approvals.Ticket;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallbackAuthenticity.Verdict;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.domain.request.OperationId;
import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.fault.ReceivedTraces;
import io.changeflow.testsupport.TestTracing;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

/** The real approval client against the approval system simulator over HTTP. */
@ApprovalSystemTest
class HttpApprovalsTest {

    @LocalServerPort
    int port;
    @Autowired
    ApprovalSimulator simulator;
    @Autowired
    Faults faults;
    @Autowired
    VerifyingReceiver receiver;
    @Autowired
    ReceivedTraces receivedTraces;

    private final List<HttpApprovals> clients = new ArrayList<>();

    @AfterEach
    void tearDown() {
        clients.forEach(HttpApprovals::close);
        faults.clear();
        simulator.reset();
        receiver.clear();
    }

    @Test
    void submitsTheFormAndReturnsTheApprovalSystemsTicket() {
        var approvals = client(ApprovalProperties.defaults());
        var form = form(Map.of("mrId", "12"));

        var ticket = approvals.submit(form);

        var stored = simulator.byOperationId(form.operationId().value()).orElseThrow();
        assertThat(ticket.ticket()).contains(stored.ticket());
        assertThat(ticket.status()).isEqualTo(TicketStatus.PENDING);
        assertThat(ticket.requestId()).isEmpty();
        assertThat(stored.form().requester()).isEqualTo("alice");
        assertThat(stored.form().target()).isEqualTo("db-prod-readonly");
        assertThat(stored.form().expiresAt()).isEqualTo("2026-12-04T17:00:00Z");
        assertThat(stored.form().ext()).containsEntry("mrId", "12");
    }

    @Test
    void retryAfterALostResponseReturnsTheSameTicket() {
        var approvals = client(ApprovalProperties.defaults());
        var form = form(Map.of());
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 0, 1, 0, 0, 0, 0));

        var lost = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form));
        faults.clear();
        var ticket = approvals.submit(form);

        assertThat(lost.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(lost.status()).isEqualTo(504);
        assertThat(lost.isTransient()).isTrue();
        assertThat(ticket.ticket()).contains(simulator.byOperationId(form.operationId().value()).orElseThrow().ticket());
        assertThat(simulator.pending()).hasSize(1);
    }

    @Test
    void anErrorAnswerCarriesTheRealStatusAndNothingIsApplied() {
        var approvals = client(ApprovalProperties.defaults());
        var form = form(Map.of());
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 1, 0, 0, 0, 0, 0));

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form));

        assertThat(failure.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(failure.status()).isIn(500, 503);
        assertThat(failure.system()).isEqualTo("approval");
        assertThat(failure.getMessage()).doesNotContain("injected");
        assertThat(simulator.byOperationId(form.operationId().value())).isEmpty();
    }

    @Test
    void aRefusedFormIsAClientErrorThatDoesNotCountAgainstTheBreaker() {
        var approvals = client(ApprovalProperties.defaults());
        var form = new ApprovalForm(OperationId.of(UUID.randomUUID().toString()), " ", "alice", "db-prod-readonly",
                "why", Optional.empty(), Map.of());

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form));

        assertThat(failure.status()).isEqualTo(400);
        assertThat(failure.isTransient()).isFalse();
        assertThat(approvals.circuitBreaker().getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @Test
    void withdrawsAPendingApprovalAndAcceptsDecidedOrUnknownOnes() {
        var approvals = client(ApprovalProperties.defaults());
        var pending = form(Map.of());
        var decided = form(Map.of());
        approvals.submit(pending);
        simulator.decide(approvals.submit(decided).ticket().orElseThrow(), true, "test");

        var withdrawn = approvals.withdraw(pending.operationId());
        var stillApproved = approvals.withdraw(decided.operationId());
        var unknown = approvals.withdraw(OperationId.of(UUID.randomUUID().toString()));

        assertThat(withdrawn.status()).isEqualTo(TicketStatus.WITHDRAWN);
        assertThat(withdrawn.requestId()).isPresent();
        assertThat(stillApproved.status()).isEqualTo(TicketStatus.APPROVED);
        assertThat(unknown).isEqualTo(Ticket.unknown());

        assertThat(simulator.byOperationId(pending.operationId().value()).orElseThrow().status())
                .isEqualTo(ApprovalSimulator.Status.WITHDRAWN);
        assertThat(simulator.byOperationId(decided.operationId().value()).orElseThrow().status())
                .isEqualTo(ApprovalSimulator.Status.APPROVED);
    }

    @Test
    void theBreakerOpensAfterRepeatedFailuresAndHealthShowsIt() {
        var approvals = client(new ApprovalProperties(null, null, null,
                new ApprovalProperties.Breaker(50f, 4, 4, Duration.ofMinutes(1), 1)));
        var health = new ApprovalHealthIndicator(approvals);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 1, 0, 0, 0, 0, 0));
        for (var i = 0; i < 4; i++) {
            assertThatThrownBy(() -> approvals.submit(form(Map.of())))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.kind()).isEqualTo(Kind.HTTP_STATUS));
        }
        faults.clear();
        var refused = form(Map.of());

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(refused));

        assertThat(failure.kind()).isEqualTo(Kind.CIRCUIT_OPEN);
        assertThat(failure.isTransient()).isTrue();
        assertThat(simulator.byOperationId(refused.operationId().value())).as("the call was not made").isEmpty();
        assertThat(approvals.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
        var report = health.health();
        assertThat(report.getStatus()).isEqualTo(Status.DOWN);
        assertThat(report.getDetails()).containsEntry("circuitBreaker", "OPEN").containsEntry("failedCalls", 4);
    }

    static List<Arguments> timeouts() {
        return List.of(
                argumentSet("the read timeout bounds a slow answer", Duration.ofMillis(300), Duration.ofSeconds(5)),
                argumentSet("the time limiter bounds the whole call", Duration.ofSeconds(30), Duration.ofMillis(300)));
    }

    @ParameterizedTest
    @MethodSource("timeouts")
    void aSlowAnswerFailsAsATimeoutWithinItsBound(Duration readTimeout, Duration callTimeout) {
        var approvals = client(new ApprovalProperties(null, readTimeout, callTimeout, null));
        faults.configure(Faults.APPROVAL, new FaultSettings(5_000, 0, 0, 0, 0, 0, 0));

        var started = System.nanoTime();
        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form(Map.of())));

        assertThat(failure.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(3_000));
    }

    @Test
    void anUnreachableSystemIsAnIoFailure() {
        var approvals = track(HttpApprovals.create(ApprovalProperties.defaults(), () -> "http://127.0.0.1:1/sim/approval",
                RestClient.builder()));

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form(Map.of())));

        assertThat(failure.kind()).isEqualTo(Kind.IO);
        assertThat(failure.isTransient()).isTrue();
    }

    @Test
    void withoutABaseUrlEveryCallFailsAndHealthIsDown() {
        var approvals = track(HttpApprovals.create(ApprovalProperties.defaults(), () -> " ", RestClient.builder()));

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.submit(form(Map.of())));

        assertThat(failure.kind()).isEqualTo(Kind.IO);
        var report = new ApprovalHealthIndicator(approvals).health();
        assertThat(report.getStatus()).isEqualTo(Status.DOWN);
        assertThat(report.getDetails()).containsEntry("baseUrlConfigured", false);
    }

    @Test
    void aCallbackCanArriveBeforeTheSubmitCallReturns() {
        var approvals = client(ApprovalProperties.defaults());
        simulator.earlyCallbacks(ApprovalSimulator.Result.APPROVED);
        var form = form(Map.of());
        receiver.flag(false);

        var ticket = approvals.submit(form);
        receiver.flag(true);

        var callbacks = receiver.received(VerifyingReceiver.mentioning(form.operationId().value()));
        assertThat(ticket.status()).as("the submit answer says it is decided already").isEqualTo(TicketStatus.APPROVED);
        assertThat(callbacks.getFirst().text()).contains("\"requestId\":\"" + ticket.requestId().orElseThrow() + "\"");
        assertThat(callbacks).hasSize(1);
        assertThat(callbacks.getFirst().verdict()).isEqualTo(Verdict.VALID);
        assertThat(callbacks.getFirst().flagWhenReceived()).as("submit had answered when the callback came").isFalse();
        assertThat(callbacks.getFirst().text()).contains("\"result\":\"APPROVED\"");
    }

    @Test
    void readsAnApprovalByOperationIdWithTheDecisionsCallbackRequestId() {
        var approvals = client(ApprovalProperties.defaults());
        var form = form(Map.of("mrId", "12"));
        var submitted = approvals.submit(form);
        assertThat(approvals.read(form.operationId()).status()).isEqualTo(TicketStatus.PENDING);
        simulator.callbacks().loseNext(1);
        simulator.decide(submitted.ticket().orElseThrow(), false, "test");

        var read = approvals.read(form.operationId());

        var stored = simulator.byOperationId(form.operationId().value()).orElseThrow();
        assertThat(read).isEqualTo(new Ticket(TicketStatus.REJECTED, Optional.of(stored.ticket()),
                Optional.of(stored.requestId()), Map.of("mrId", "12"), Optional.of("test")));
    }

    @Test
    void readingAnOperationTheApprovalSystemNeverSawAnswersUnknown() {
        var approvals = client(ApprovalProperties.defaults());

        assertThat(approvals.read(OperationId.of(UUID.randomUUID().toString()))).isEqualTo(Ticket.unknown());
    }

    static List<Arguments> failedReads() {
        return List.of(
                argumentSet("a failed read is a transient failure and never reads as unknown", ApprovalProperties.defaults(),
                        new FaultSettings(0, 1, 0, 0, 0, 0, 0), Kind.HTTP_STATUS),
                argumentSet("a slow read is a timeout", new ApprovalProperties(null, Duration.ofMillis(300), Duration.ofSeconds(5), null),
                        new FaultSettings(5_000, 0, 0, 0, 0, 0, 0), Kind.TIMEOUT));
    }

    @ParameterizedTest
    @MethodSource("failedReads")
    void aReadThatFailsIsATransientFailureOfItsKind(ApprovalProperties properties, FaultSettings fault, Kind kind) {
        var approvals = client(properties);
        var form = form(Map.of());
        approvals.submit(form);
        faults.configure(Faults.APPROVAL, fault);

        var failure = catchThrowableOfType(ExternalCallException.class, () -> approvals.read(form.operationId()));

        assertThat(failure.kind()).isEqualTo(kind);
        assertThat(failure.isTransient()).isTrue();
    }

    @Test
    void everyCallIsReportedByOperationAndOutcomeAndTheBreakerPublishesItsState() {
        var meters = new SimpleMeterRegistry();
        CallMetrics calls = (system, operation, outcome, took) -> meters.timer(CALLS, "system", system,
                "operation", operation, "outcome", outcome.tag()).record(took);
        var approvals = track(HttpApprovals.create(ApprovalProperties.defaults(),
                () -> "http://localhost:" + port + "/sim/approval", RestClient.builder(), calls, meters));
        var form = form(Map.of());
        approvals.submit(form);
        approvals.read(form.operationId());
        faults.configure(Faults.APPROVAL, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));
        assertThatThrownBy(() -> approvals.read(form.operationId())).isInstanceOf(ExternalCallException.class);

        assertThat(timed(meters, "submit", "success")).isEqualTo(1);
        assertThat(timed(meters, "read", "success")).isEqualTo(1);
        assertThat(timed(meters, "read", "server_error")).isEqualTo(1);
        var closed = meters.find("resilience4j.circuitbreaker.state").tags("name", "approval", "state", "closed").gauge();
        assertThat(closed).isNotNull();
        assertThat(closed.value()).isEqualTo(1.0);
    }

    @Test
    void everyCallCarriesTheCallersTraceparentThoughItRunsOnAThreadOfItsOwn() {
        try (var tracing = new TestTracing()) {
            var approvals = track(HttpApprovals.create(ApprovalProperties.defaults(),
                    () -> "http://localhost:" + port + "/sim/approval", RestClient.builder(), CallMetrics.NONE, null,
                    new ApprovalTraces(tracing.tracer(), tracing.propagator())));
            var form = form(Map.of());
            try (var caller = tracing.inCallersTrace()) {
                approvals.submit(form);
                approvals.read(form.operationId());
            }
            approvals.read(form.operationId());

            assertThat(receivedTraces.inTrace(TestTracing.TRACE_ID))
                    .extracting(ReceivedTraces.Received::system, ReceivedTraces.Received::method)
                    .containsExactly(tuple("approval", "POST"), tuple("approval", "GET"));
        }
    }

    private static final String CALLS = "test.calls";

    private static long timed(SimpleMeterRegistry meters, String operation, String outcome) {
        var timer = meters.find(CALLS).tags("system", "approval", "operation", operation, "outcome", outcome)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private HttpApprovals client(ApprovalProperties properties) {
        Supplier<String> baseUrl = () -> "http://localhost:" + port + "/sim/approval";
        return track(HttpApprovals.create(properties, baseUrl, RestClient.builder()));
    }

    private HttpApprovals track(HttpApprovals approvals) {
        clients.add(approvals);
        return approvals;
    }

    private static ApprovalForm form(Map<String, String> ext) {
        return new ApprovalForm(OperationId.of(UUID.randomUUID().toString()), "alice", "alice", "db-prod-readonly",
                "incident 42", Optional.of(Instant.parse("2026-12-04T17:00:00Z")), ext);
    }
}
