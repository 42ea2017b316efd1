package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.TargetFiles;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/**
 * Timeouts, the circuit breaker, lost responses and the health indicator, with the simulator's fault
 * injection: every failure reaches the caller as an {@link ExternalCallException} of the right kind, in
 * bounded time. Previews read GitLab through a breaker, a timeout and a bulkhead of their own: hammering the
 * preview while GitLab fails opens the preview's breaker only, the workflow's stays closed and untouched.
 */
class GitLabResilienceTest {

    private static final SimulatorServer server = SimulatorServer.get();

    private String project;

    @BeforeEach
    void newProject() {
        server.faults().clear();
        server.gitlab().setTimings(Duration.ZERO, Duration.ofMillis(600), Duration.ofMillis(200));
        project = server.newProject("platform/resilience", Map.of("grants/db.txt", "alice\n"));
    }

    @AfterEach
    void noFaults() {
        server.faults().clear();
    }

    @Test
    void opensTheBreakerAfterServerErrorsAndReportsItInHealth() {
        // one try per call here (read retries off): GitLabReadRetryTest shows the breaker sees every retry too
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("read-retries", "0",
                "circuit-breaker.minimum-number-of-calls", "3", "circuit-breaker.sliding-window-size", "4",
                "circuit-breaker.wait-duration-in-open-state", "1m"))) {
            var gitlab = adapter.mergeRequests();
            assertThat(adapter.health().health().getStatus()).isEqualTo(Status.UP);
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));

            for (var attempt = 0; attempt < 3; attempt++) {
                assertThatThrownBy(() -> gitlab.defaultBranch(project))
                        .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                            assertThat(e.kind()).isEqualTo(Kind.HTTP_STATUS);
                            assertThat(e.status()).isIn(500, 503);
                            assertThat(e.isTransient()).isTrue();
                        });
            }
            server.faults().clear();
            assertThatThrownBy(() -> gitlab.defaultBranch(project))
                    .isInstanceOfSatisfying(ExternalCallException.class,
                            e -> assertThat(e.kind()).isEqualTo(Kind.CIRCUIT_OPEN));

            var health = adapter.health().health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("circuitBreaker", "OPEN")
                    .containsEntry("baseUrl", server.baseUrl());
            assertThat(health.getDetails().toString()).doesNotContain("token");
        }
    }

    @Test
    void anOpenBreakerLetsProbeCallsThroughAfterItsWaitAndClosesWhenGitLabAnswersAgain() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("read-retries", "0",
                "circuit-breaker.minimum-number-of-calls", "3", "circuit-breaker.sliding-window-size", "4",
                "circuit-breaker.wait-duration-in-open-state", "500ms",
                "circuit-breaker.permitted-calls-in-half-open-state", "2"))) {
            var gitlab = adapter.mergeRequests();
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));
            for (var attempt = 0; attempt < 3; attempt++) {
                assertThatThrownBy(() -> gitlab.defaultBranch(project)).isInstanceOf(ExternalCallException.class);
            }
            server.faults().clear();
            assertThatThrownBy(() -> gitlab.defaultBranch(project)).isInstanceOfSatisfying(ExternalCallException.class,
                    e -> assertThat(e.kind()).isEqualTo(Kind.CIRCUIT_OPEN));

            // after the wait the breaker is half open (automatically): the probes reach GitLab and succeed
            var deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            String branch = null;
            while (branch == null && System.nanoTime() < deadline) {
                try {
                    branch = gitlab.defaultBranch(project);
                } catch (ExternalCallException e) {
                    assertThat(e.kind()).as("only the open breaker refuses now").isEqualTo(Kind.CIRCUIT_OPEN);
                    Thread.onSpinWait();
                }
            }
            assertThat(branch).as("a probe call got through within 5 s").isEqualTo("main");
            assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
            var health = adapter.health().health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).as("closed again after the two successful probes").containsEntry("circuitBreaker", "CLOSED");
        }
    }

    @Test
    void keepsTheBreakerClosedForGitLabsOwnAnswers() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "circuit-breaker.minimum-number-of-calls", "2", "circuit-breaker.sliding-window-size", "2"))) {
            var gitlab = adapter.mergeRequests();
            for (var attempt = 0; attempt < 5; attempt++) {
                assertThatThrownBy(() -> gitlab.defaultBranch("platform/does-not-exist"))
                        .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(404));
            }
            assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
            assertThat(adapter.health().health().getStatus()).isEqualTo(Status.UP);
        }
    }

    @Test
    void turnsASlowAnswerIntoATimeoutAfterTheReadTimeout() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "read-timeout", "300ms", "call-timeout", "5s"))) {
            server.faults().configure(Faults.GITLAB, new FaultSettings(3000, 0, 0, 0, 0, 0, 0));

            var started = System.nanoTime();
            assertThatThrownBy(() -> adapter.mergeRequests().get(project, 1))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                        assertThat(e.isTransient()).isTrue();
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
            assertThat(adapter.health().health().getDetails().get("lastFailure").toString()).startsWith("TIMEOUT");
        }
    }

    @Test
    void boundsTheWholeCallWithTheTimeLimiter() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "read-timeout", "10s", "call-timeout", "300ms"))) {
            server.faults().configure(Faults.GITLAB, new FaultSettings(3000, 0, 0, 0, 0, 0, 0));

            var started = System.nanoTime();
            assertThatThrownBy(() -> adapter.mergeRequests().approvedBy(project, 1))
                    .isInstanceOfSatisfying(ExternalCallException.class,
                            e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void reportsALostResponseAsAnErrorWhileGitLabAppliedTheCall() {
        try (var adapter = AdapterContext.against(server)) {
            var gitlab = adapter.mergeRequests();
            gitlab.createBranch(project, "changeflow/lost", "main");
            gitlab.commit(project, "changeflow/lost", "Grant bob", List.of(new FileChange("grants/db.txt", "alice\nbob\n")));
            var iid = gitlab.open(project, "changeflow/lost", "main", "Grant bob", "operations: lost").iid();
            var sha = gitlab.get(project, iid).sha();
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 0, 1.0, 0, 0, 0, 0));

            assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.status()).isEqualTo(504);
                        assertThat(e.isTransient()).isTrue();
                    });
            // the merge reads the project's merge train settings first (issue 35): that read's answer is lost, so
            // the merge is not sent at all; a lost answer to an applied write is the approval's above
            assertThatThrownBy(() -> gitlab.merge(project, iid, sha))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(504));

            server.faults().clear();
            assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
            assertThat(gitlab.get(project, iid).state()).as("not merged without knowing the train").isEqualTo(MergeRequestState.OPENED);
            assertThat(gitlab.merge(project, iid, sha)).isEqualTo(MergeResult.MERGED);
        }
    }

    @Test
    void reportsAnUnreachableGitLabAsAnIoFailureWithoutLeakingCredentials() {
        try (var adapter = AdapterContext.start("http://user:secret@127.0.0.1:9/sim/gitlab", Map.of(
                "connect-timeout", "300ms", "author.account", "changeflow-bot", "author.token", "do-not-show"))) {
            assertThatThrownBy(() -> adapter.mergeRequests().defaultBranch(project))
                    .isInstanceOfSatisfying(ExternalCallException.class,
                            e -> assertThat(e.kind()).isIn(Kind.IO, Kind.TIMEOUT));

            var details = adapter.health().health().getDetails().toString();
            assertThat(details).contains("127.0.0.1:9/sim/gitlab").doesNotContain("secret").doesNotContain("do-not-show");
        }
    }

    @Test
    void hammeringThePreviewWhileGitLabFailsNeverOpensTheWorkflowsBreaker() {
        // the same breaker settings for both, small enough to open within a few failures
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "circuit-breaker.minimum-number-of-calls", "3", "circuit-breaker.sliding-window-size", "4",
                "circuit-breaker.wait-duration-in-open-state", "1m",
                "preview.circuit-breaker.minimum-number-of-calls", "3", "preview.circuit-breaker.sliding-window-size", "4",
                "preview.circuit-breaker.wait-duration-in-open-state", "1m"))) {
            var preview = adapter.context().getBean(TargetFiles.class);
            var workflowBreaker = adapter.calls().breaker();
            assertThat(preview.currentContent(project, "grants/db.txt")).contains("alice\n");
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));

            var kinds = new java.util.EnumMap<Kind, Integer>(Kind.class);
            for (var hit = 0; hit < 50; hit++) {
                try {
                    preview.currentContent(project, "grants/db.txt");
                } catch (ExternalCallException e) {
                    kinds.merge(e.kind(), 1, Integer::sum);
                }
            }

            var previewBreaker = ((GitLabTargetFiles) preview).breaker();
            assertThat(previewBreaker.getName()).isEqualTo("gitlab-preview");
            assertThat(previewBreaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
            assertThat(kinds.getOrDefault(Kind.CIRCUIT_OPEN, 0)).as("refused by the preview breaker: " + kinds).isGreaterThan(40);
            assertThat(workflowBreaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
            assertThat(workflowBreaker.getMetrics().getNumberOfBufferedCalls()).as("the workflow's breaker saw no preview call")
                    .isZero();
            // GitLab back: the workflow reads at once, while the preview breaker still waits out its open state
            server.faults().clear();
            assertThat(adapter.mergeRequests().defaultBranch(project)).isEqualTo("main");
            assertThatThrownBy(() -> preview.currentContent(project, "grants/db.txt"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CIRCUIT_OPEN));
        }
    }

    @Test
    void aFullPreviewBulkheadRefusesAtOnceWithoutCallingGitLab() throws Exception {
        var inside = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var asked = new AtomicInteger();
        // the one preview in flight is held inside its call (where the adapter asks whether it is configured)
        var calls = new GitLabCalls(CircuitBreaker.of("test-preview", CircuitBreakerConfig.ofDefaults()), Duration.ofMinutes(1),
                Clock.systemUTC(), () -> {
                    asked.incrementAndGet();
                    inside.countDown();
                    awaitQuietly(release);
                    return Optional.of("held by the test");
                }, 0, Duration.ofMillis(1), GitLabBudget.UNLIMITED, CallMetrics.NONE);
        try (var files = new GitLabTargetFiles(calls, null, 1)) {
            var first = CompletableFuture.runAsync(() -> files.currentContent(project, "grants/db.txt"));
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> files.currentContent(project, "grants/db.txt"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
                        assertThat(e.isTransient()).isTrue();
                    });
            assertThat(asked.get()).as("the refused preview made no call").isEqualTo(1);
            release.countDown();
            assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ExternalCallException.class);
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
