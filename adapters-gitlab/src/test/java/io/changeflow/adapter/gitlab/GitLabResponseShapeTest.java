package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gitlab4j.api.utils.UrlEncoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pins the simulator to GitLab's documented response shapes, so it cannot drift from real GitLab: the
 * simulator's answers carry every documented field with the documented JSON type, and the adapter reads
 * the documented payloads (served by WireMock) exactly as it reads the simulator's.
 */
class GitLabResponseShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final String DOCUMENTED_PROJECT = "platform/access-config";

    private static SimulatorServer server;
    private static WireMockServer wiremock;
    private static AdapterContext againstSimulator;
    private static AdapterContext againstWireMock;

    private String project;

    @BeforeAll
    static void start() {
        server = SimulatorServer.get();
        wiremock = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wiremock.start();
        againstSimulator = AdapterContext.against(server);
        againstWireMock = AdapterContext.start(wiremock.baseUrl(), Map.of());
    }

    @AfterAll
    static void stop() {
        againstSimulator.close();
        againstWireMock.close();
        wiremock.stop();
    }

    @BeforeEach
    void newProject() {
        server.faults().clear();
        server.gitlab().setTimings(Duration.ZERO, Duration.ofMillis(300), Duration.ofMillis(100));
        wiremock.resetAll();
        project = server.newProject("platform/shapes", Map.of("grants/db-prod-readonly.txt", "alice\nbob\n"));
    }

    @Test
    void simulatorAnswersMergeRequestsProjectsAndFilesInTheDocumentedShape() {
        var iid = openMergeRequest("changeflow/shape", "grants/db-prod-readonly.txt", "alice\nbob\ncarol\n");
        await().atMost(Duration.ofSeconds(5)).until(() -> againstSimulator.mergeRequests().latestPipeline(project, iid)
                .map(Pipeline::status).equals(Optional.of(PipelineStatus.PASSED)));

        assertSameShape(documented("merge-request.json"),
                simulator("GET", "/merge_requests/" + iid + "?include_rebase_in_progress=true").body());
        assertSameShape(documented("project.json"), simulator("GET", "").body());
        assertSameShape(documented("repository-file.json"),
                simulator("GET", "/repository/files/" + encode("grants/db-prod-readonly.txt") + "?ref=main").body());
    }

    @Test
    void simulatorAnswersApprovalsAndPipelinesInTheDocumentedShape() {
        var iid = openMergeRequest("changeflow/approved", "grants/db-prod-readonly.txt", "alice\n");
        againstSimulator.mergeRequests().approve(project, iid, "approval-bot-1");
        againstSimulator.mergeRequests().approve(project, iid, "approval-bot-2");

        assertSameShape(documented("approvals.json"), simulator("GET", "/merge_requests/" + iid + "/approvals").body());
        var pipelines = simulator("GET", "/merge_requests/" + iid + "/pipelines").body();
        assertSameShape(documented("merge-request-pipelines.json"), pipelines);
        assertSameShape(documented("pipeline.json"), simulator("GET", "/pipelines/" + pipelines.get(0).get("id").asLong()).body());
    }

    @Test
    void simulatorAnswersGitLabsRealMergeErrors() {
        server.gitlab().setTimings(Duration.ofSeconds(30), Duration.ofMillis(300), Duration.ofMillis(100));
        var checking = openMergeRequest("changeflow/checking", "grants/a.txt", "a\n");
        var unchecked = simulator("PUT", "/merge_requests/" + checking + "/merge");
        assertThat(unchecked.status()).isEqualTo(422);
        assertThat(unchecked.body()).isEqualTo(documented("merge-422-cannot-be-merged.json"));

        server.gitlab().setTimings(Duration.ZERO, Duration.ofMillis(300), Duration.ofMillis(100));
        var first = openMergeRequest("changeflow/first", "grants/db-prod-readonly.txt", "alice\n");
        var second = openMergeRequest("changeflow/second", "grants/db-prod-readonly.txt", "bob\n");
        var stale = simulator("PUT", "/merge_requests/" + first + "/merge?sha=" + "0".repeat(40));
        assertThat(stale.status()).isEqualTo(409);
        assertSameShape(documented("merge-409-sha-mismatch.json"), stale.body());
        assertThat(stale.body().get("message").asText()).startsWith("SHA does not match HEAD of source branch");

        assertThat(simulator("PUT", "/merge_requests/" + first + "/merge").status()).isEqualTo(200);
        // GitLab 17/18 (the simulator's default profile): a conflict is 422 "Branch cannot be merged", not 405
        var conflict = simulator("PUT", "/merge_requests/" + second + "/merge");
        assertThat(conflict.status()).isEqualTo(422);
        assertThat(conflict.body()).isEqualTo(documented("merge-422-cannot-be-merged.json"));

        var rebase = simulator("PUT", "/merge_requests/" + second + "/rebase");
        assertThat(rebase.status()).isEqualTo(202);
        assertThat(rebase.body()).isEqualTo(documented("rebase-202.json"));

        var selfApproval = simulator("POST", "/merge_requests/" + second + "/approve");
        assertThat(selfApproval.status()).isEqualTo(401);
        assertThat(selfApproval.body()).isEqualTo(documented("approve-401.json"));
    }

    @Test
    void adapterReadsTheDocumentedPayloads() {
        var base = "/api/v4/projects/" + clientEncoded(DOCUMENTED_PROJECT);
        stub("GET", base, 200, "project.json");
        // the merge reads the project's merge train settings over plain HTTP, which leaves '-' unencoded
        stub("GET", "/api/v4/projects/" + GitLabHttp.projectPath(DOCUMENTED_PROJECT).substring("/projects/".length()), 200,
                "project.json");
        stub("GET", base + "/repository/files/" + clientEncoded("grants/db-prod-readonly.txt"), 200,
                "repository-file.json");
        stub("GET", base + "/merge_requests/133", 200, "merge-request.json");
        stub("GET", base + "/merge_requests/133/approvals", 200, "approvals.json");
        stub("GET", base + "/merge_requests/133/pipelines", 200, "merge-request-pipelines.json");
        stubGet(base + "/merge_requests/134/pipelines", JSON.createArrayNode());
        // a refusal is read by its reason: the merge request as GitLab reports it right after
        stub("PUT", base + "/merge_requests/1/merge", 405, "merge-405-method-not-allowed.json");
        stubGet(base + "/merge_requests/1", withFields(documented("merge-request.json"), "conflict", true));
        stubGet(base + "/merge_requests/3", withFields(documented("merge-request.json"), "checking", false));
        stub("PUT", base + "/merge_requests/4/merge", 405, "merge-405-method-not-allowed.json");
        stubGet(base + "/merge_requests/4", withFields(documented("merge-request.json"), "draft_status", false));
        stub("PUT", base + "/merge_requests/5/merge", 405, "merge-405-method-not-allowed.json");
        stubGet(base + "/merge_requests/5", withFields(documented("merge-request.json"), "not_approved", false));
        stub("PUT", base + "/merge_requests/2/merge", 409, "merge-409-sha-mismatch.json");
        stub("PUT", base + "/merge_requests/3/merge", 422, "merge-422-cannot-be-merged.json");
        stub("PUT", base + "/merge_requests/133/rebase", 202, "rebase-202.json");
        stub("POST", base + "/merge_requests/133/approve", 401, "approve-401.json");
        var gitlab = againstWireMock.mergeRequests();

        assertThat(gitlab.defaultBranch(DOCUMENTED_PROJECT)).isEqualTo("main");
        assertThat(gitlab.readFile(DOCUMENTED_PROJECT, "main", "grants/db-prod-readonly.txt")).contains("alice\nbob\n");
        assertThat(gitlab.get(DOCUMENTED_PROJECT, 133)).isEqualTo(new RemoteMergeRequest(DOCUMENTED_PROJECT, 133,
                MergeRequestState.OPENED, "mergeable", "8888888888888888888888888888888888888888",
                "changeflow/op-6f1c7e52", "https://gitlab.example.com/platform/access-config/-/merge_requests/133",
                false, Optional.empty(), false, Optional.empty()));
        assertThat(gitlab.approvedBy(DOCUMENTED_PROJECT, 133)).containsExactly("approval-bot-1", "approval-bot-2");
        assertThat(gitlab.latestPipeline(DOCUMENTED_PROJECT, 133)).contains(
                new Pipeline(1287133, "959e04d7c7a30600c894bd3c0cd0e1ce7f42c11d", PipelineStatus.RUNNING));
        assertThat(gitlab.latestPipeline(DOCUMENTED_PROJECT, 134)).as("no pipeline yet").isEmpty();
        assertThat(gitlab.merge(DOCUMENTED_PROJECT, 1, "a")).isEqualTo(MergeResult.NOT_MERGEABLE);
        assertThat(gitlab.merge(DOCUMENTED_PROJECT, 2, "a")).isEqualTo(MergeResult.SHA_MISMATCH_OR_LOCKED);
        assertThat(gitlab.merge(DOCUMENTED_PROJECT, 3, "a")).isEqualTo(MergeResult.CANNOT_BE_MERGED_YET);
        assertThat(gitlab.merge(DOCUMENTED_PROJECT, 4, "a")).as("405 for a draft is no conflict").isEqualTo(MergeResult.BLOCKED);
        assertThat(gitlab.merge(DOCUMENTED_PROJECT, 5, "a")).isEqualTo(MergeResult.NOT_APPROVED);
        assertThat(gitlab.headPipeline(DOCUMENTED_PROJECT, 133)).contains(
                new Pipeline(1287101, "8888888888888888888888888888888888888888", PipelineStatus.PASSED));
        gitlab.rebase(DOCUMENTED_PROJECT, 133);
        assertThatThrownBy(() -> gitlab.approve(DOCUMENTED_PROJECT, 133, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(401));
    }

    @Test
    void adapterReadsDocumentedPayloadsCarryingTheSimulatorsValuesExactlyAsItReadsTheSimulator() {
        var iid = openMergeRequest("changeflow/same", "grants/db-prod-readonly.txt", "alice\ndave\n");
        againstSimulator.mergeRequests().approve(project, iid, "approval-bot-2");
        server.gitlab().lock(project, iid, Duration.ofSeconds(30));
        server.gitlab().forcePipeline(project, iid, PipelineOutcome.FAILED);
        var simulatorMergeRequest = simulator("GET", "/merge_requests/" + iid + "?include_rebase_in_progress=true").body();
        var simulatorApprovals = simulator("GET", "/merge_requests/" + iid + "/approvals").body();
        var simulatorPipelines = simulator("GET", "/merge_requests/" + iid + "/pipelines").body();

        var mergeRequest = (ObjectNode) documented("merge-request.json");
        for (var field : List.of("iid", "state", "detailed_merge_status", "sha", "source_branch", "web_url",
                "merge_error", "rebase_in_progress")) {
            mergeRequest.set(field, simulatorMergeRequest.get(field));
        }
        var approvals = (ObjectNode) documented("approvals.json");
        approvals.set("approved_by", simulatorApprovals.get("approved_by"));
        var pipelines = documented("merge-request-pipelines.json");
        ((ObjectNode) pipelines.get(0)).set("status", simulatorPipelines.get(0).get("status"));
        ((ObjectNode) pipelines.get(0)).set("sha", simulatorPipelines.get(0).get("sha"));
        ((ObjectNode) pipelines.get(0)).put("id", Long.MAX_VALUE / 2);
        var base = "/api/v4/projects/" + clientEncoded(project) + "/merge_requests/" + iid;
        stubGet(base, mergeRequest);
        stubGet(base + "/approvals", approvals);
        stubGet(base + "/pipelines", pipelines);

        MergeRequests fromSimulator = againstSimulator.mergeRequests();
        MergeRequests fromDocumented = againstWireMock.mergeRequests();
        assertThat(fromDocumented.get(project, iid)).isEqualTo(fromSimulator.get(project, iid));
        assertThat(fromDocumented.get(project, iid).state()).isEqualTo(MergeRequestState.LOCKED);
        assertThat(fromDocumented.approvedBy(project, iid)).isEqualTo(fromSimulator.approvedBy(project, iid));
        var documentedPipeline = fromDocumented.latestPipeline(project, iid).orElseThrow();
        var simulatorPipeline = fromSimulator.latestPipeline(project, iid).orElseThrow();
        assertThat(documentedPipeline.id()).isEqualTo(Long.MAX_VALUE / 2);
        assertThat(documentedPipeline.status()).isEqualTo(simulatorPipeline.status()).isEqualTo(PipelineStatus.FAILED);
        assertThat(documentedPipeline.sha()).isEqualTo(simulatorPipeline.sha())
                .isEqualTo(fromSimulator.get(project, iid).sha());
    }

    /** Every documented field is there, with the documented JSON type wherever both values are non-null. */
    private static void assertSameShape(JsonNode documented, JsonNode actual) {
        assertSameShape(documented, actual, "$");
    }

    private static void assertSameShape(JsonNode documented, JsonNode actual, String path) {
        if (documented.isNull() || actual.isNull()) {
            return;
        }
        assertThat(actual.getNodeType()).as("JSON type of %s", path).isEqualTo(documented.getNodeType());
        if (documented.isObject()) {
            documented.fieldNames().forEachRemaining(name -> {
                assertThat(actual.has(name)).as("%s.%s is in the simulator's answer", path, name).isTrue();
                assertSameShape(documented.get(name), actual.get(name), path + "." + name);
            });
        } else if (documented.isArray() && !documented.isEmpty() && !actual.isEmpty()) {
            for (var element : actual) {
                assertSameShape(documented.get(0), element, path + "[]");
            }
        }
    }

    private long openMergeRequest(String branch, String path, String content) {
        var gitlab = againstSimulator.mergeRequests();
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + path, List.of(new FileChange(path, content)));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }

    private record Answer(int status, JsonNode body) {}

    /** A raw call to the simulator as the author bot, to see its JSON as GitLab clients do. */
    private Answer simulator(String method, String pathInProject) {
        var uri = URI.create(server.baseUrl() + "/api/v4/projects/" + encode(project) + pathInProject);
        var request = HttpRequest.newBuilder(uri)
                .header("PRIVATE-TOKEN", server.gitlab().author().token())
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            var response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode documented(String name) {
        try (var in = GitLabResponseShapeTest.class.getResourceAsStream("/gitlab/documented/" + name)) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stub(String method, String path, int status, String fixture) {
        var response = aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody(documented(fixture).toString());
        var mapping = switch (method) {
            case "GET" -> get(urlPathEqualTo(path));
            case "PUT" -> put(urlPathEqualTo(path));
            default -> post(urlPathEqualTo(path));
        };
        wiremock.stubFor(mapping.willReturn(response));
    }

    /** {@code mergeRequest} with another {@code detailed_merge_status} and {@code has_conflicts}. */
    private static JsonNode withFields(JsonNode mergeRequest, String detailedMergeStatus, boolean hasConflicts) {
        var copy = (ObjectNode) mergeRequest.deepCopy();
        copy.put("detailed_merge_status", detailedMergeStatus);
        copy.put("has_conflicts", hasConflicts);
        return copy;
    }

    private static void stubGet(String path, JsonNode body) {
        wiremock.stubFor(get(urlPathEqualTo(path)).willReturn(okJson(body.toString())));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** How gitlab4j encodes paths (it also escapes {@code -} and {@code .}); WireMock matches the raw path. */
    private static String clientEncoded(String value) {
        return UrlEncoder.urlEncode(value);
    }
}
