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
 * the test-control API and fault injection (delay, failure without effect, applied but answered 504).
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
