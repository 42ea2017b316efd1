package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The adapter against GitLab's documented answers for approvals (rules unmet, 304, 403), rate limits (429 with
 * {@code Retry-After} and {@code RateLimit-*}) and a GitLab without the check-items extension (404), served by
 * WireMock from {@code src/test/resources/gitlab/documented/approvals-and-limits} (sources in its README).
 */
class GitLabApprovalAndRateLimitShapeTest {

    /** No {@code -} or {@code .}: gitlab4j and the direct HTTP call encode it the same way. */
    private static final String PROJECT = "platform/grants";
    private static final String BASE = "/api/v4/projects/platform%2Fgrants/merge_requests/133";

    private static WireMockServer wiremock;
    private static AdapterContext adapter;

    @BeforeAll
    static void start() {
        wiremock = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wiremock.start();
        adapter = AdapterContext.start(wiremock.baseUrl(), Map.of(
                "circuit-breaker.minimum-number-of-calls", "2", "circuit-breaker.sliding-window-size", "2"));
    }

    @AfterAll
    static void stop() {
        adapter.close();
        wiremock.stop();
    }

    @BeforeEach
    void reset() {
        wiremock.resetAll();
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, null);
    }

    @Test
    void readsApprovalRulesLeftAsNotApprovedThoughEveryBotApproved() {
        wiremock.stubFor(get(urlPathEqualTo(BASE + "/approvals")).willReturn(json(200, "approvals-rules-unmet.json")));

        var state = adapter.mergeRequests().approvalState(PROJECT, 133);

        assertThat(state.approvedBy()).containsExactlyInAnyOrder("approval-bot-1", "approval-bot-2");
        assertThat(state.approved()).isFalse();
        assertThat(state.approvalsLeft()).isEqualTo(1);
    }

    @Test
    void takesGitLab19sNotModifiedAsApprovedAndKeeps403AsNotEligible() {
        wiremock.stubFor(post(urlPathEqualTo(BASE + "/approve")).willReturn(aResponse().withStatus(304)));
        adapter.mergeRequests().approve(PROJECT, 133, "approval-bot-1", "8888888888888888888888888888888888888888");

        wiremock.stubFor(post(urlPathEqualTo(BASE + "/approve")).willReturn(json(403, "approve-403.json")));
        assertThatThrownBy(() -> adapter.mergeRequests().approve(PROJECT, 133, "approval-bot-2"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.isTransient()).isFalse();
                });
    }

    @Test
    void carriesRetryAfterOfA429AndFallsBackToRateLimitReset() {
        var reset = Instant.now().plusSeconds(45).getEpochSecond();
        wiremock.stubFor(get(urlPathEqualTo(BASE + "/approvals")).willReturn(rateLimited()
                .withHeader("Retry-After", "30").withHeader("RateLimit-Reset", String.valueOf(reset))));
        assertThatThrownBy(() -> adapter.mergeRequests().approvalState(PROJECT, 133))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.retryAfter()).contains(Duration.ofSeconds(30));
                });

        wiremock.stubFor(get(urlPathEqualTo(BASE + "/approvals")).willReturn(rateLimited()
                .withHeader("RateLimit-Reset", String.valueOf(reset))));
        for (var call = 0; call < 3; call++) {
            assertThatThrownBy(() -> adapter.mergeRequests().approvalState(PROJECT, 133))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.retryAfter())
                            .hasValueSatisfying(wait -> assertThat(wait).isBetween(Duration.ofSeconds(30), Duration.ofSeconds(46))));
        }
        assertThat(adapter.calls().breaker().getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @Test
    void approvesWithTheClientLibraryWhereTheCheckItemsApiIsMissing() {
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        wiremock.stubFor(get(urlPathEqualTo("/api/v4/projects/platform%2Fgrants/approval_check_items"))
                .willReturn(json(404, "check-items-404.json")));
        wiremock.stubFor(post(urlPathEqualTo(BASE + "/approve")).willReturn(json(201, "approvals-rules-unmet.json")));

        adapter.mergeRequests().approve(PROJECT, 133, "approval-bot-1");
        adapter.mergeRequests().approve(PROJECT, 133, "approval-bot-2");

        wiremock.verify(1, getRequestedFor(
                urlPathEqualTo("/api/v4/projects/platform%2Fgrants/approval_check_items")));
        wiremock.verify(2, postRequestedFor(urlPathEqualTo(BASE + "/approve"))
                .withHeader("Content-Type", notContaining("json")));
    }

    private static ResponseDefinitionBuilder rateLimited() {
        return aResponse().withStatus(429).withHeader("Content-Type", "text/plain")
                .withHeader("RateLimit-Name", "throttle_authenticated_api").withHeader("RateLimit-Limit", "600")
                .withHeader("RateLimit-Observed", "600").withHeader("RateLimit-Remaining", "0")
                .withBody(fixture("rate-limited.txt"));
    }

    private static ResponseDefinitionBuilder json(int status, String name) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(fixture(name));
    }

    private static String fixture(String name) {
        try (var in = GitLabApprovalAndRateLimitShapeTest.class.getResourceAsStream(
                "/gitlab/documented/approvals-and-limits/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
