package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's project hooks (issue 33 item 3): listed to maintainers without the token, the events due as a pipeline
 * or a merge request changes, and the sender's GitLab headers and faults.
 */
class GitLabWebhooksSimulatorTest extends SeededGitLabTest {

    /** A request the receiver got: the headers that matter and the body. */
    record Received(Map<String, String> headers, String body) {}

    private final LinkedBlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private HttpServer receiver;
    private String url;

    @BeforeEach
    void start() throws Exception {
        seed(GitLabSimulatorProperties.defaults(), null);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/callbacks/gitlab", exchange -> {
            var headers = new java.util.TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
            for (var name : List.of("X-Gitlab-Event", "X-Gitlab-Token", "X-Gitlab-Event-UUID", "X-Gitlab-Instance",
                    "X-Gitlab-Webhook-UUID", "Idempotency-Key", "User-Agent", "Content-Type")) {
                var value = exchange.getRequestHeaders().getFirst(name);
                if (value != null) {
                    headers.put(name, value);
                }
            }
            received.add(new Received(headers, new String(exchange.getRequestBody().readAllBytes())));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/callbacks/gitlab";
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    private long openedMergeRequest(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        gitlab.commit(PROJECT, branch, "Change", null, false,
                List.of(Map.of("action", "create", "file_path", "grants/" + branch + ".txt", "content", "bob\n")), author);
        return (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", author).get("iid");
    }

    @Test
    void theHooksAreListedToMaintainersWithoutTheirTokenAndRefusedToOthers() {
        gitlab.hookEveryProject(url, "secret-token", value -> value);
        gitlab.setRole(PROJECT, "approval-bot-1", 30);

        var listed = gitlab.hooksJson(PROJECT, gitlab.authenticate("author-bot-token"));

        assertThat(listed).singleElement().satisfies(hook -> {
            assertThat(hook).containsEntry("url", url).containsEntry("pipeline_events", true)
                    .containsEntry("merge_requests_events", true).containsEntry("alert_status", "executable");
            assertThat(hook.toString()).doesNotContain("secret-token");
        });
        assertThatThrownBy(() -> gitlab.hooksJson(PROJECT, bot1)).isInstanceOfSatisfying(GitLabError.class,
                refused -> assertThat(refused.status()).isEqualTo(403));
    }

    @Test
    void aPipelineEventIsDueAtEachStatusChangeAndAMergeRequestEventAtOpenPushAndMerge() {
        gitlab.hookEveryProject(url, "secret-token", value -> value);
        var iid = openedMergeRequest("feature-a");

        var first = gitlab.dueHookDeliveries();
        clock.advance(Duration.ofHours(1));
        var later = gitlab.dueHookDeliveries();

        assertThat(first).extracting(GitLabProjectHooks.Delivery::event).contains("Pipeline Hook", "Merge Request Hook");
        assertThat(first).filteredOn(d -> d.event().equals("Merge Request Hook")).singleElement()
                .satisfies(d -> assertThat(d.payload().toString()).contains("action=open", "iid=" + iid));
        assertThat(later).singleElement().satisfies(d -> {
            assertThat(d.event()).isEqualTo("Pipeline Hook");
            assertThat(d.payload().toString()).contains("status=success", "ref=feature-a", "path_with_namespace=" + PROJECT);
        });
        assertThat(gitlab.dueHookDeliveries()).as("nothing new").isEmpty();
        gitlab.removeHooks(PROJECT);
        gitlab.push(PROJECT, "feature-a", Map.of("grants/more.txt", "carol\n"), "More");
        assertThat(gitlab.dueHookDeliveries()).as("no hook, no event").isEmpty();
    }

    @Test
    void theSenderPostsWithGitLabsHeadersAndADuplicateKeepsItsIdempotencyKey() throws Exception {
        gitlab.hookEveryProject(url, "secret-token", value -> value);
        try (var sender = new GitLabWebhookSender(gitlab, new GitLabWebhookSender.Faults(0, 1, Duration.ZERO),
                Duration.ofMillis(20))) {
            openedMergeRequest("feature-b");

            var one = received.poll(10, TimeUnit.SECONDS);
            var two = received.poll(10, TimeUnit.SECONDS);

            assertThat(one).isNotNull();
            assertThat(two).isNotNull();
            assertThat(one.headers()).containsEntry("X-Gitlab-Token", "secret-token")
                    .containsEntry("Content-Type", "application/json").containsKeys("X-Gitlab-Event", "X-Gitlab-Event-UUID",
                            "X-Gitlab-Instance", "X-Gitlab-Webhook-UUID", "Idempotency-Key");
            assertThat(one.headers().get("User-Agent")).startsWith("GitLab/");
            assertThat(two.headers().get("Idempotency-Key")).isEqualTo(one.headers().get("Idempotency-Key"));
            assertThat(two.headers().get("X-Gitlab-Webhook-UUID")).isNotEqualTo(one.headers().get("X-Gitlab-Webhook-UUID"));
            assertThat(two.body()).isEqualTo(one.body());
        }
    }

    @Test
    void aLostEventIsNeverSentAndCounted() throws Exception {
        gitlab.hookEveryProject(url, "secret-token", value -> value);
        try (var sender = new GitLabWebhookSender(gitlab, new GitLabWebhookSender.Faults(1, 0, Duration.ZERO),
                Duration.ofMillis(20))) {
            openedMergeRequest("feature-c");
            var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sender.lost() < 2 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(sender.lost()).as("the open and the new pipeline, both lost").isEqualTo(2);
            sender.setFaults(GitLabWebhookSender.Faults.none());
            clock.advance(Duration.ofHours(1));

            var next = received.poll(10, TimeUnit.SECONDS);

            assertThat(next).isNotNull();
            assertThat(next.body()).contains("\"status\":\"success\"");
            assertThat(received).isEmpty();
        }
    }
}
