package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.changeflow.application.settings.Settings;
import io.changeflow.testsupport.TestTracing;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every call to GitLab carries the caller's trace context as W3C {@code traceparent}, through both HTTP clients
 * (gitlab4j's Jersey client and the direct calls), although the calls run on the adapter's own threads.
 */
class GitLabTracePropagationTest {

    private static final String PROJECT = "platform/grants";
    private static final String BASE = "/api/v4/projects/platform%2Fgrants/merge_requests/133";
    private static final String APPROVALS = "{\"approvals_required\":1,\"approvals_left\":1,\"approved_by\":[]}";

    private static WireMockServer wiremock;
    private static TestTracing tracing;
    private static AdapterContext adapter;

    @BeforeAll
    static void start() {
        wiremock = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wiremock.start();
        tracing = new TestTracing();
        adapter = AdapterContext.traced(wiremock.baseUrl(), tracing);
    }

    @AfterAll
    static void stop() {
        adapter.close();
        wiremock.stop();
        tracing.close();
    }

    @BeforeEach
    void reset() {
        wiremock.resetAll();
        wiremock.stubFor(get(urlPathEqualTo(BASE + "/approvals")).willReturn(json(200, APPROVALS)));
        wiremock.stubFor(get(urlPathEqualTo("/api/v4/projects/platform%2Fgrants/approval_check_items"))
                .willReturn(json(404, "{\"message\":\"404 Not Found\"}")));
        wiremock.stubFor(post(urlPathEqualTo(BASE + "/approve")).willReturn(json(201, APPROVALS)));
    }

    @Test
    void theClientLibraryAndTheDirectCallsSendTheCallersTraceparent() {
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        try (var caller = tracing.inCallersTrace()) {
            adapter.mergeRequests().approvalState(PROJECT, 133);
            adapter.mergeRequests().approve(PROJECT, 133, "approval-bot-1");
        }

        var requests = requests();
        assertThat(requests).extracting(LoggedRequest::getUrl).anyMatch(url -> url.endsWith("/approvals"))
                .anyMatch(url -> url.endsWith("/approval_check_items")) // the direct call
                .anyMatch(url -> url.endsWith("/approve"));             // the client library's fallback
        assertThat(requests).allSatisfy(request -> assertThat(request.getHeader("traceparent"))
                .as(request.getUrl()).matches("00-" + TestTracing.TRACE_ID + "-[0-9a-f]{16}-01"));
    }

    @Test
    void withoutATraceNoTraceparentIsSent() {
        adapter.mergeRequests().approvalState(PROJECT, 133);

        assertThat(requests()).singleElement().satisfies(request ->
                assertThat(request.containsHeader("traceparent")).isFalse());
    }

    private static List<LoggedRequest> requests() {
        return wiremock.findAll(anyRequestedFor(anyUrl()));
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body);
    }
}
