package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;

import io.changeflow.adapter.local.FileDynamicConfig;
import io.changeflow.adapter.web.guard.SlidingWindowLimiter;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.fake.SettableClock;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultMatcher;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/** Shared fixtures of the web tests: the context's fakes, reset before every test. */
@WebLayerTest
abstract class WebTestSupport {

    @Autowired
    MockMvc mvc;
    @Autowired
    SettableClock clock;
    FakePermissions permissions;
    FakeDirectory directory;
    @Autowired
    FakeAuditLog auditLog;
    @Autowired
    FakeClusterRateLimits clusterLimits;
    @Autowired
    FaultyMeterRegistry registry;
    @Autowired
    FileDynamicConfig dynamicConfig;
    @Autowired
    SlidingWindowLimiter limiter;
    @Autowired
    InMemoryChangeflow app;
    @Autowired
    TestWebhooks webhooks;
    @LocalServerPort
    int port;

    @Autowired
    void identityFakes(WebTestApplication.IdentityFakes fakes) {
        permissions = fakes.permissions();
        directory = fakes.directory();
    }

    private static final AtomicInteger SUBJECTS = new AtomicInteger();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void resetFakes() throws IOException {
        permissions.reset();
        directory.reset();
        auditLog.reset();
        clusterLimits.reset();
        settleSharedWork();
        app.gitlab.nextPipeline(PipelineStatus.PASSED).nextPipelineDelay(0);
        webhooks.reset();
        app.config.set(Settings.ACCESS_MODE, "OPEN");
        app.permissions.failing(false);
        registry.faulty = false;
        registry.clear();
        // Every rate-limit window of earlier tests has passed.
        clock.advance(Duration.ofHours(2));
        writeConfig("");
    }

    /**
     * Runs the work earlier tests left queued (the application is shared by the whole suite), so that
     * faults a test queues on the fakes (e.g. a failing pipeline) act on that test's requests only.
     */
    private void settleSharedWork() {
        for (var i = 0; i < 1_000; i++) {
            try {
                if (!app.queue.runNext()) {
                    return;
                }
            } catch (RuntimeException | AssertionError e) {
                // That step failed on purpose in its own test; the queue retries it later like the scheduler would.
            }
        }
    }

    /**
     * A new batchable target, {@code <partition>-target}, whose requests batch in {@code partition} (one no other
     * test uses), so no other test sees its batches.
     */
    TargetKey batchableTarget(String partition) {
        var key = partition + "-target";
        var target = TargetKey.of(key);
        app.targets.add(new Target(target, "Batchable target " + key, "A batchable target of one web test",
                FakeTargets.PROJECT, "grants/" + key + ".txt", true, partition).withAskFor(AskPolicy.ANYONE));
        return target;
    }

    /**
     * An approved request of {@code target}, waiting for a batch round. Runs the queue only until its
     * approval was submitted, so a batch of the partition does not take its steps meanwhile.
     */
    OperationId waitingForARound(TargetKey target, String subject) {
        var id = app.submitAccepted(target, subject);
        while (app.queue.pending(StepKind.SUBMIT_APPROVAL, id.value()).isPresent()) {
            app.queue.runNext();
        }
        app.decide(id, Decision.APPROVED);
        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        return id;
    }

    /** A request on the single-MR target for a subject of its own, waiting for its approver (its merge request exists). */
    OperationId awaitingApproval() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "awaiting" + SUBJECTS.incrementAndGet());
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        return id;
    }

    /** A request approved and merged ({@link #awaitingApproval}, then APPROVED), waiting for its deploy report. */
    OperationId merged() {
        var id = awaitingApproval();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        return id;
    }

    /** Runs {@code id} through its approval (APPROVED), merge and deploy report: its change is in effect. */
    OperationId approvedAndDeployed(OperationId id) {
        app.approveAndRun(id);
        app.deployed(id);
        return id;
    }

    /** Replaces the dynamic config file and applies it at once (tests of hot reload wait for the poll instead). */
    void writeConfig(String content) throws IOException {
        Files.createDirectories(dynamicConfig.file().getParent());
        Files.writeString(dynamicConfig.file(), content, StandardCharsets.UTF_8);
        dynamicConfig.refresh();
    }

    static MockHttpServletRequestBuilder as(MockHttpServletRequestBuilder request, String user) {
        return request.header(CallerIdentity.USER_HEADER, user);
    }

    /** The answer has {@code status} and the envelope's {@code code}. */
    static ResultMatcher answers(ResultMatcher status, String code) {
        return allOf(status, jsonPath("$.code").value(code));
    }

    /** The envelope's first field error names {@code field} with {@code code}. */
    static ResultMatcher firstFieldError(String field, String code) {
        return allOf(jsonPath("$.data.fieldErrors[0].field").value(field), jsonPath("$.data.fieldErrors[0].code").value(code));
    }

    /** Every one of {@code matchers}, in order. */
    private static ResultMatcher allOf(ResultMatcher... matchers) {
        return result -> {
            for (var matcher : matchers) {
                matcher.match(result);
            }
        };
    }

    static RequestPostProcessor peer(String address) {
        return request -> {
            request.setRemoteAddr(address);
            return request;
        };
    }

    /** A real HTTP answer has {@code status} and the envelope's {@code code}. */
    static void assertAnswer(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.body()).contains("\"code\":\"" + code + "\"");
    }

    /** A real HTTP call on the random port; the body goes to the leak scan. */
    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        var built = request.build();
        var response = http.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        ResponseCorpus.record("HTTP " + built.method() + " " + built.uri(), response.body());
        return response;
    }

    /**
     * A request written byte for byte on a socket (no client library that would refuse or repair it, e.g. a
     * malformed percent-escape); answers the status and the whole response text. The body goes to the leak scan.
     */
    RawAnswer sendRaw(String method, String pathAndQuery, String contentType, String body) throws IOException {
        return exchangeRaw(method, pathAndQuery, contentType == null ? "" : "Content-Type: " + contentType + "\r\n", body);
    }

    /** {@link #sendRaw} with one extra header line written exactly as given (e.g. {@code "Accept: "}). */
    RawAnswer sendRawWithHeader(String method, String pathAndQuery, String headerLine) throws IOException {
        return exchangeRaw(method, pathAndQuery, headerLine + "\r\n", null);
    }

    /** {@link #sendRaw} with extra header lines written exactly as given, and an optional body. */
    RawAnswer sendRawWithHeaders(String method, String pathAndQuery, java.util.List<String> headerLines, String body)
            throws IOException {
        var lines = new StringBuilder();
        headerLines.forEach(line -> lines.append(line).append("\r\n"));
        return exchangeRaw(method, pathAndQuery, lines.toString(), body);
    }

    private RawAnswer exchangeRaw(String method, String pathAndQuery, String headerLines, String body) throws IOException {
        var bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        var head = method + " " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + headerLines + "Content-Length: " + bytes.length + "\r\n\r\n";
        try (var socket = new java.net.Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            var out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            var text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ResponseCorpus.record("RAW " + method + " " + pathAndQuery, text);
            return new RawAnswer(Integer.parseInt(text.substring(9, 12)), text);
        }
    }

    /** The status of a raw answer and its whole text (status line, headers, body). */
    record RawAnswer(int status, String text) {}

    URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
