package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.MergeListener;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulator over HTTP as GitLab clients see it: encoded project paths, tokens, pagination headers,
 * the test-control API and fault injection (delay, failure without effect, applied but answered 504);
 * and as people see it: {@code web_url}s on this server's port that open a read-only merge request page.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = GitLabSimulatorHttpTest.App.class,
        properties = {"sandbox.gitlab.checking-duration=0s", "sandbox.gitlab.pipeline-duration=1s"})
class GitLabSimulatorHttpTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(GitLabSimulatorConfiguration.class)
    static class App {

        @Bean
        Faults faults() {
            return new Faults();
        }

        @Bean
        MergeListener recordingListener() {
            return (project, iid, description) -> MERGED.add(project + "!" + iid);
        }
    }

    private static final List<String> MERGED = new CopyOnWriteArrayList<>();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String AUTHOR = "author-bot-token";
    private static final String PROJECT = "platform%2Faccess-config";

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    GitLabSimulator gitlab;

    @Autowired
    Faults faults;

    @BeforeEach
    void cleanSlate() {
        faults.clear();
        gitlab.reset();
    }

    @AfterEach
    void noFaults() {
        faults.clear();
    }

    @Test
    void addressesTheSeededProjectByEncodedPathAndById() {
        var byPath = call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null);
        assertThat(byPath.statusCode()).isEqualTo(200);
        var id = json(byPath).get("id").asLong();

        var byId = call("GET", "/api/v4/projects/" + id, AUTHOR, null);
        assertThat(json(byId).get("path_with_namespace").asString()).isEqualTo("platform/access-config");
        assertThat(json(byId).get("default_branch").asString()).isEqualTo("main");
    }

    @Test
    void refusesCallsWithoutAKnownToken() {
        assertThat(call("GET", "/api/v4/projects/" + PROJECT, null, null).statusCode()).isEqualTo(401);
        var wrong = call("GET", "/api/v4/projects/" + PROJECT, "wrong", null);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(json(wrong).get("message").asString()).isEqualTo("401 Unauthorized");
    }

    @Test
    void servesFilesAsBase64JsonAndRaw() {
        var file = call("GET", "/api/v4/projects/" + PROJECT + "/repository/files/README.md?ref=main", AUTHOR, null);
        assertThat(file.statusCode()).isEqualTo(200);
        assertThat(json(file).get("encoding").asString()).isEqualTo("base64");
        assertThat(file.headers().firstValue("X-Gitlab-File-Path")).contains("README.md");

        var raw = call("GET", "/api/v4/projects/" + PROJECT + "/repository/files/README.md/raw?ref=main", AUTHOR, null);
        assertThat(raw.body()).isEqualTo("# platform/access-config\n");
        var missing = call("GET", "/api/v4/projects/" + PROJECT + "/repository/files/grants%2Fnone.txt?ref=main", AUTHOR, null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing).get("message").asString()).isEqualTo("404 File Not Found");
    }

    @Test
    void runsAMergeRequestThroughJsonAndFormRequests() {
        assertThat(call("POST", "/api/v4/projects/" + PROJECT + "/repository/branches?branch=feature%2Fone&ref=main",
                AUTHOR, null).statusCode()).isEqualTo(201);
        var commit = call("POST", "/api/v4/projects/" + PROJECT + "/repository/commits", AUTHOR, """
                {"branch": "feature/one", "commit_message": "Two files", "actions": [
                  {"action": "create", "file_path": "grants/a.txt", "content": "alice\\n"},
                  {"action": "create", "file_path": "grants/b.txt", "content": "Ym9iCg==", "encoding": "base64"}]}""");
        assertThat(commit.statusCode()).isEqualTo(201);
        assertThat(gitlab.file("platform/access-config", "feature/one", "grants/b.txt")).contains("bob\n");

        var created = form("POST", "/api/v4/projects/" + PROJECT + "/merge_requests",
                "source_branch=feature%2Fone&target_branch=main&title=Two+files&description=ops");
        assertThat(created.statusCode()).isEqualTo(201);
        var iid = json(created).get("iid").asLong();

        var list = call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests?source_branch=feature%2Fone&state=opened",
                AUTHOR, null);
        assertThat(json(list).size()).isEqualTo(1);
        assertThat(list.headers().firstValue("X-Total")).contains("1");
        assertThat(list.headers().firstValue("X-Total-Pages")).contains("1");

        assertThat(call("POST", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/approve",
                "approval-bot-1-token", "{\"check_items\": []}").statusCode()).isEqualTo(201);
        var merged = form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge",
                "sha=" + gitlab.mergeRequestSha("platform/access-config", iid));
        assertThat(merged.statusCode()).isEqualTo(200);
        assertThat(json(merged).get("state").asString()).isEqualTo("merged");
        assertThat(MERGED).contains("platform/access-config!" + iid);

        var closed = form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, "state_event=close");
        assertThat(json(closed).get("state").asString()).isEqualTo("merged");
    }

    @Test
    void answersTheCheckItemsOfTheUpstreamConfigurationApi() {
        var control = call("PUT", "/_control/projects/" + PROJECT + "/check_items", null,
                "{\"check_items\": [\"ticket-linked\"], \"enforce\": true}");
        assertThat(control.statusCode()).isEqualTo(200);

        var items = call("GET", "/api/v4/projects/" + PROJECT + "/approval_check_items", AUTHOR, null);
        assertThat(json(items).get("check_items").get(0).asString()).isEqualTo("ticket-linked");
        assertThat(json(items).get("enforced").asBoolean()).isTrue();
    }

    @Test
    void failsWithoutApplyingWhenFaultsSaySo() {
        faults.configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));

        var failed = call("POST", "/api/v4/projects/" + PROJECT + "/repository/branches?branch=never&ref=main", AUTHOR, null);

        assertThat(failed.statusCode()).isIn(500, 503);
        assertThat(gitlab.branchHead("platform/access-config", "never")).isEmpty();
        assertThat(call("POST", "/_control/projects", null, "{\"path\": \"team/control\"}").statusCode())
                .as("the control API is never fault-injected").isEqualTo(201);
    }

    @Test
    void appliesButAnswers504WhenTheResponseIsLost() {
        faults.configure(Faults.GITLAB, new FaultSettings(0, 0, 1.0, 0, 0, 0, 0));

        var lost = call("POST", "/api/v4/projects/" + PROJECT + "/repository/branches?branch=applied&ref=main", AUTHOR, null);

        assertThat(lost.statusCode()).isEqualTo(504);
        assertThat(json(lost).get("message").asString()).isEqualTo("504 Gateway Timeout");
        assertThat(gitlab.branchHead("platform/access-config", "applied")).isPresent();
    }

    @Test
    void delaysEveryCallByTheConfiguredLatency() {
        faults.configure(Faults.GITLAB, new FaultSettings(400, 0, 0, 0, 0, 0, 0));

        var started = System.nanoTime();
        var answer = call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null);

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void letsTestsControlPipelinesLocksAndTimingsOverHttp() {
        gitlab.push("platform/access-config", "feature", Map.of("grants/a.txt", "a\n"), "Change");
        var created = form("POST", "/api/v4/projects/" + PROJECT + "/merge_requests",
                "source_branch=feature&target_branch=main&title=Change");
        var iid = json(created).get("iid").asLong();

        assertThat(call("PUT", "/_control/projects/" + PROJECT + "/merge_requests/" + iid + "/pipeline_outcome", null,
                "{\"outcome\": \"failed\"}").statusCode()).isEqualTo(204);
        var pipelines = call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/pipelines", AUTHOR, null);
        assertThat(json(pipelines).get(0).get("status").asString()).isEqualTo("failed");

        call("POST", "/_control/projects/" + PROJECT + "/merge_requests/" + iid + "/lock", null, "{\"millis\": 60000}");
        assertThat(form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge", "").statusCode())
                .isEqualTo(409);

        var timings = call("PUT", "/_control/timings", null, "{\"checking_millis\": 1500}");
        assertThat(json(timings).get("checking_millis").asLong()).isEqualTo(1500);
        assertThat(gitlab.properties().checkingDuration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(call("PUT", "/_control/projects/" + PROJECT + "/merge_requests/" + iid + "/pipeline_outcome", null,
                "{\"outcome\": \"sometimes\"}").statusCode()).isEqualTo(400);
    }

    @Test
    void letsTestsSetTheMergeMethodAndTurnCiOffOverHttp() {
        assertThat(call("PUT", "/_control/projects/" + PROJECT + "/merge_method", null, "{\"merge_method\": \"ff\"}")
                .statusCode()).isEqualTo(204);
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null)).get("merge_method").asString()).isEqualTo("ff");
        assertThat(call("PUT", "/_control/projects/" + PROJECT + "/ci", null, "{\"enabled\": false}").statusCode()).isEqualTo(204);
        gitlab.push("platform/access-config", "no-ci", Map.of("grants/a.txt", "a\n"), "Change");
        var created = form("POST", "/api/v4/projects/" + PROJECT + "/merge_requests",
                "source_branch=no-ci&target_branch=main&title=Change");
        var iid = json(created).get("iid").asLong();

        var mr = json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, AUTHOR, null));
        assertThat(mr.get("head_pipeline").isNull()).isTrue();
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/pipelines", AUTHOR, null))
                .size()).isZero();
    }

    @Test
    void letsTestsSetWhatBlocksAMergeOverHttpEachUntilCleared() {
        call("PUT", "/_control/timings", null, "{\"checking_millis\": 0}"); // timings survive reset
        var iid = openMergeRequest("checks/http", "Checks over HTTP", Map.of("grants/c.txt", "c\n"));
        var control = "/_control/projects/" + PROJECT;
        var mr = control + "/merge_requests/" + iid;

        assertThat(call("PUT", mr + "/draft", null, "{\"draft\": true}").statusCode()).isEqualTo(204);
        assertThat(detailedStatus(iid)).isEqualTo("draft_status");
        assertThat(form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge", "").statusCode()).isEqualTo(405);
        call("PUT", mr + "/draft", null, "{\"draft\": false}");
        call("PUT", control + "/require_resolved_discussions", null, "{\"required\": true}");
        call("PUT", mr + "/unresolved_discussions", null, "{\"count\": 2}");
        assertThat(detailedStatus(iid)).isEqualTo("discussions_not_resolved");
        call("PUT", mr + "/unresolved_discussions", null, "{\"count\": 0}");
        call("PUT", control + "/require_status_checks", null, "{\"required\": true}");
        assertThat(detailedStatus(iid)).isEqualTo("status_checks_must_pass");
        call("PUT", mr + "/status_checks", null, "{\"status\": \"passed\"}");
        assertThat(detailedStatus(iid)).isEqualTo("mergeable");
        call("PUT", mr + "/merge_after", null, "{\"merge_after\": \"2999-01-01T00:00:00Z\"}");
        assertThat(detailedStatus(iid)).isEqualTo("merge_time");
        call("PUT", mr + "/merge_after", null, "{\"merge_after\": null}");
        assertThat(call("PUT", control + "/approval_settings", null, "{\"merge_requests_author_approval\": true, "
                + "\"merge_requests_disable_committers_approval\": false, \"selective_code_owner_removals\": true}").statusCode())
                .isEqualTo(204);
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT + "/approvals", AUTHOR, null))
                .get("selective_code_owner_removals").asBoolean()).isTrue();
        call("PUT", control + "/push_rule", null, "{\"commit_message_regex\": \"JIRA-\\\\d+\"}");
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT + "/push_rule", AUTHOR, null))
                .get("commit_message_regex").asString()).isEqualTo("JIRA-\\d+");
        assertThat(call("DELETE", control + "/push_rule", null, null).statusCode()).isEqualTo(204);
        assertThat(call("GET", "/api/v4/projects/" + PROJECT + "/push_rule", AUTHOR, null).body()).isEqualTo("null");
        call("PUT", control + "/require_reauthentication_to_approve", null, "{\"required\": true}");
        assertThat(call("POST", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/approve", "approval-bot-1-token",
                "{\"check_items\": []}").statusCode()).isEqualTo(401);
        call("POST", control + "/refuse_merges", null, "{\"times\": 1, \"merge_error\": \"Commit message does not follow the pattern\"}");

        var refused = form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge", "");

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, AUTHOR, null))
                .get("merge_error").asString()).isEqualTo("Commit message does not follow the pattern");
        assertThat(form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge", "").statusCode()).isEqualTo(200);
    }

    @Test
    void refusesAControlBodyWithoutItsFieldOrWithAnUnknownStatusWith400() {
        call("PUT", "/_control/timings", null, "{\"checking_millis\": 0}"); // timings survive reset
        var iid = openMergeRequest("checks/bad", "Bad bodies", Map.of("grants/d.txt", "d\n"));
        var mr = "/_control/projects/" + PROJECT + "/merge_requests/" + iid;

        assertThat(call("PUT", mr + "/draft", null, "{\"drafted\": true}").statusCode()).isEqualTo(400);
        assertThat(call("PUT", mr + "/status_checks", null, "{\"status\": \"green\"}").statusCode()).isEqualTo(400);
        assertThat(call("PUT", mr + "/unresolved_discussions", null, "{\"count\": -1}").statusCode()).isEqualTo(400);
        assertThat(call("POST", "/_control/projects/" + PROJECT + "/refuse_merges", null, "{\"times\": 1}").statusCode())
                .isEqualTo(400);
        assertThat(call("PUT", "/_control/projects/nobody%2Fnothing/require_sha_for_merge", null, "{\"required\": true}")
                .statusCode()).isEqualTo(404);
        assertThat(call("PUT", mr + "/merge_after", null, "{\"merge_after\": \"tomorrow\"}").statusCode()).isEqualTo(400);
        assertThat(call("PUT", "/_control/projects/" + PROJECT + "/push_rule", null, "{\"branch_name_regex\": \"(\"}")
                .statusCode()).as("an invalid expression").isEqualTo(400);
        assertThat(detailedStatus(iid)).isEqualTo("mergeable");
    }

    /**
     * Issue 35: with GitLab's {@code rate_limiting_headers_for_unthrottled_requests} on, every admitted answer carries the
     * budget ({@code RateLimit-*}, no {@code Retry-After}); the control API sets how much of an account's budget is left.
     */
    @Test
    void reportsTheRateLimitBudgetOnEveryAnswerWhereAskedAndLetsTestsSetWhatIsLeft(@Autowired GitLabRateLimit limit) {
        try {
            assertThat(call("PUT", "/_control/rate_limit", null, "{\"per_minute\": 60, \"headers_on_every_answer\": true}")
                    .statusCode()).isEqualTo(204);
            var first = call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null);
            assertThat(first.headers().firstValue("RateLimit-Limit")).contains("60");
            assertThat(first.headers().firstValue("RateLimit-Remaining")).contains("59");
            assertThat(first.headers().firstValue("RateLimit-Name")).contains("throttle_authenticated_api");
            assertThat(first.headers().firstValue("Retry-After")).isEmpty();

            assertThat(call("PUT", "/_control/rate_limit/accounts/changeflow-bot", null, "{\"remaining\": 2}").statusCode())
                    .isEqualTo(204);
            var low = call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null);
            assertThat(low.headers().firstValue("RateLimit-Remaining")).contains("1");
            assertThat(Long.parseLong(low.headers().firstValue("RateLimit-Reset").orElseThrow()))
                    .isGreaterThan(java.time.Instant.now().getEpochSecond());

            assertThat(call("PUT", "/_control/rate_limit/accounts/nobody", null, "{\"remaining\": 2}").statusCode())
                    .isEqualTo(400);
            assertThat(call("PUT", "/_control/rate_limit", null, "{\"per_minute\": \"lots\"}").statusCode()).isEqualTo(400);
        } finally {
            limit.setPerMinute(0);
            limit.setHeadersOnEveryAnswer(false);
        }
    }

    private String detailedStatus(long iid) {
        return json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, AUTHOR, null))
                .get("detailed_merge_status").asString();
    }

    @Test
    void webUrlsFollowThePortTheServerActuallyListensOn() {
        var iid = openMergeRequest("web/port", "Port check", Map.of("grants/a.txt", "alice\n"));

        var mr = json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, AUTHOR, null));

        assertThat(mr.get("web_url").asString())
                .isEqualTo("http://localhost:" + port + "/sim/gitlab/platform/access-config/-/merge_requests/" + iid);
        assertThat(json(call("GET", "/api/v4/projects/" + PROJECT, AUTHOR, null)).get("web_url").asString())
                .isEqualTo("http://localhost:" + port + "/sim/gitlab/platform/access-config");
        assertThat(gitlab.webUrl()).isEqualTo("http://localhost:" + port + "/sim/gitlab");
    }

    @Test
    void theMergeRequestWebUrlOpensAReadOnlyPageWithStateBranchesApprovalsPipelineAndDiff() {
        gitlab.push("platform/access-config", "main", Map.of("grants/db.txt", "bob until=2030-01-01T00:00:00Z\n"), "Seed");
        var iid = openMergeRequest("changeflow/grant-alice", "Grant db to alice",
                Map.of("grants/db.txt", "bob until=2030-01-01T00:00:00Z\nalice until=2031-01-01T00:00:00Z op=1234\n"));
        call("POST", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/approve", "approval-bot-1-token",
                "{\"check_items\": []}");
        var webUrl = json(call("GET", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid, AUTHOR, null))
                .get("web_url").asString();

        var page = send(HttpRequest.newBuilder(URI.create(webUrl)).header("Accept", "text/html").GET().build());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'none'"));
        assertThat(page.body())
                .contains("<h1 data-testid=\"mr-title\">Grant db to alice</h1>")
                .contains("data-testid=\"mr-state\">opened<")
                .contains("<code data-testid=\"mr-source-branch\">changeflow/grant-alice</code> into <code data-testid=\"mr-target-branch\">main</code>")
                .contains("data-count=\"1\">1 of 2 required: approval-bot-1<")
                .containsPattern("data-testid=\"mr-pipeline\" data-status=\"(pending|running|success)\">#\\d+ ")
                .contains("data-path=\"grants/db.txt\"")
                .contains("<span class=\"ctx\">  bob until=2030-01-01T00:00:00Z</span>")
                .contains("<span class=\"add\">+ alice until=2031-01-01T00:00:00Z op=1234</span>")
                .doesNotContain("class=\"del\"")
                .doesNotContain("<script");

        form("PUT", "/api/v4/projects/" + PROJECT + "/merge_requests/" + iid + "/merge", "");
        var merged = send(HttpRequest.newBuilder(URI.create(webUrl)).GET().build());
        assertThat(merged.body()).contains("data-testid=\"mr-state\">merged<")
                .contains("<span class=\"add\">+ alice until=2031-01-01T00:00:00Z op=1234</span>")
                .contains(">Merged</dt>");
    }

    @Test
    void theMergeRequestPageEscapesWhatItShowsAndAnswers404ForUnknownOnes() {
        var iid = openMergeRequest("web/escape", "<script>alert(1)</script> & \"quotes\"",
                Map.of("grants/x.txt", "<img src=x onerror=alert(1)>\n"));

        var page = send(HttpRequest.newBuilder(URI.create(gitlab.webUrl() + "/platform/access-config/-/merge_requests/" + iid)).GET().build());

        assertThat(page.body())
                .contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;")
                .contains("+ &lt;img src=x onerror=alert(1)&gt;")
                .doesNotContain("<script>")
                .doesNotContain("<img");
        var unknownMr = send(HttpRequest.newBuilder(URI.create(gitlab.webUrl() + "/platform/access-config/-/merge_requests/999")).GET().build());
        assertThat(unknownMr.statusCode()).isEqualTo(404);
        assertThat(unknownMr.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(unknownMr.body()).contains("404 Not found");
        var unknownProject = send(HttpRequest.newBuilder(URI.create(gitlab.webUrl() + "/nobody/nothing/-/merge_requests/1")).GET().build());
        assertThat(unknownProject.statusCode()).isEqualTo(404);
    }

    /** A branch from main with {@code files} and a merge request from it by the author bot; answers its iid. */
    private long openMergeRequest(String branch, String title, Map<String, String> files) {
        gitlab.push("platform/access-config", branch, files, title);
        var created = call("POST", "/api/v4/projects/" + PROJECT + "/merge_requests", AUTHOR, JSON.writeValueAsString(
                Map.of("source_branch", branch, "target_branch", "main", "title", title)));
        assertThat(created.statusCode()).isEqualTo(201);
        return json(created).get("iid").asLong();
    }

    private HttpResponse<String> form(String method, String path, String body) {
        var request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sim/gitlab" + path))
                .header("PRIVATE-TOKEN", AUTHOR)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .build();
        return send(request);
    }

    private HttpResponse<String> call(String method, String path, String token, String jsonBody) {
        var builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sim/gitlab" + path));
        if (token != null) {
            builder.header("PRIVATE-TOKEN", token);
        }
        if (jsonBody != null) {
            builder.header("Content-Type", "application/json");
        }
        builder.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(jsonBody));
        return send(builder.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
