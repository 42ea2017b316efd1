package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.settings.Settings;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GitLab's 429 against the simulator's rate limit ({@code sandbox.gitlab.rate-limit-per-minute}): the wait
 * GitLab asks for reaches the caller, a 429 is neither tried again at once nor a breaker failure, so a burst
 * cannot open the breaker and fail every step at once.
 */
class GitLabRateLimitTest {

    private static final SimulatorServer server = SimulatorServer.get();
    private String project;

    @BeforeEach
    void newProject() {
        server.faults().clear();
        project = server.newProject("platform/rate", Map.of("README.md", "# rate\n"));
    }

    @AfterEach
    void noLimit() {
        server.rateLimit().setPerMinute(0);
        server.rateLimit().setHeadersOnEveryAnswer(false);
        server.rateLimit().reset();
    }

    /**
     * Issue 35: where GitLab reports the budget on every answer ({@code rate_limiting_headers_for_unthrottled_requests}),
     * the adapter stops calling once a bot has the reserve or fewer left, before GitLab answers 429: each call then
     * fails at once as RATE_LIMITED with the wait until GitLab's {@code RateLimit-Reset}, not counted by the breaker;
     * with more left again, calls go on.
     */
    @Test
    void aBudgetReportedNearlyUsedUpStopsTheCallsBeforeGitLabAnswers429AndTheStepWaitsUntilTheReset() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("rate-limit-reserve", "3"))) {
            var gitlab = adapter.mergeRequests();
            server.rateLimit().reset();
            server.rateLimit().setPerMinute(120);
            server.rateLimit().setHeadersOnEveryAnswer(true);
            assertThat(gitlab.defaultBranch(project)).as("plenty left").isEqualTo("main");
            assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
            server.rateLimit().setRemaining("author-bot-token", 4);

            assertThat(gitlab.defaultBranch(project)).as("this answer reports 3 left").isEqualTo("main");
            var made = server.rateLimit().budget("author-bot-token").orElseThrow().observed();
            for (var call = 0; call < 5; call++) {
                assertThatThrownBy(() -> gitlab.defaultBranch(project))
                        .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                            assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
                            assertThat(e.isTransient()).isTrue();
                            assertThat(e.retryAfter()).hasValueSatisfying(wait -> assertThat(wait)
                                    .isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofSeconds(61)));
                        });
            }

            assertThat(server.rateLimit().budget("author-bot-token").orElseThrow().observed()).as("no call made")
                    .isEqualTo(made);
            assertThat(server.rateLimit().refused()).as("GitLab never had to answer 429").isZero();
            assertThat(adapter.calls().breaker().getMetrics().getNumberOfFailedCalls()).isZero();
        }
    }

    @Test
    void withoutTheHeadersOnEveryAnswerOrWithTheReserveOffOnlyGitLabs429Stops() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("rate-limit-reserve", "0"))) {
            var gitlab = adapter.mergeRequests();
            server.rateLimit().reset();
            server.rateLimit().setPerMinute(120);
            server.rateLimit().setHeadersOnEveryAnswer(true);
            server.rateLimit().setRemaining("author-bot-token", 2);

            assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
            assertThat(gitlab.defaultBranch(project)).as("the reserve is off: called").isEqualTo("main");
            assertThatThrownBy(() -> gitlab.defaultBranch(project))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(429));
        }
    }

    @Test
    void aBurstAnswered429KeepsTheBreakerClosedAndEveryFailureCarriesGitLabsWait() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "circuit-breaker.minimum-number-of-calls", "3", "circuit-breaker.sliding-window-size", "4"))) {
            var gitlab = adapter.mergeRequests();
            server.rateLimit().reset();
            server.rateLimit().setPerMinute(3);
            for (var call = 0; call < 3; call++) {
                assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
            }

            for (var call = 0; call < 20; call++) {
                assertThatThrownBy(() -> gitlab.defaultBranch(project))
                        .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                            assertThat(e.kind()).isEqualTo(Kind.HTTP_STATUS);
                            assertThat(e.status()).isEqualTo(429);
                            assertThat(e.isTransient()).isTrue();
                            assertThat(e.retryAfter()).hasValueSatisfying(wait -> assertThat(wait)
                                    .isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofSeconds(61)));
                        });
            }

            assertThat(adapter.calls().breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
            // one try per call: a 429 is not read again after 200 and 400 ms (that would be 60 refusals)
            assertThat(server.rateLimit().refused()).isEqualTo(20);
        }
    }

    @Test
    void theDirectApprovalReports429WithTheWaitAndNoBreakerFailure() {
        try (var adapter = AdapterContext.against(server)) {
            var gitlab = adapter.mergeRequests();
            gitlab.createBranch(project, "changeflow/rate", "main");
            gitlab.commit(project, "changeflow/rate", "Grant",
                    List.of(new FileChange("a.txt", "a\n")));
            var iid = gitlab.open(project, "changeflow/rate", "main", "Grant", "operations: rate").iid();
            adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
            // one call a minute per account: the bot's check-items read passes, its approval is answered 429
            server.rateLimit().setPerMinute(1);
            assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.status()).isEqualTo(429);
                        assertThat(e.retryAfter()).isPresent();
                    });
            assertThat(adapter.calls().breaker().getMetrics().getNumberOfFailedCalls()).isZero();
        }
    }
}
