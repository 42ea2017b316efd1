package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gitlab4j.api.utils.UrlEncoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Only the head's own pipeline counts (issue 35): the merge request's {@code head_pipeline} is GitLab's stored
 * association, which stays the previous head's after a push until the new head's pipeline is created, and forever
 * when the push creates none. The adapter attributes it to the commit it ran for (a merged-results pipeline to the
 * head that is its merge commit's second parent), against both simulator profiles and GitLab's answer shape.
 */
class GitLabHeadPipelineTest extends AgainstProjectOfItsOwn {

    private static final Duration SETTLE = Duration.ofSeconds(10);

    @Override
    String projectPath() {
        return "platform/head-pipeline";
    }

    @AfterEach
    void noPipelineCreationDelay() {
        server.gitlab().setPipelineCreationDelay(Duration.ZERO);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void thePreviousHeadsPassedPipelineDoesNotCountForAPushThatCreatedNoPipeline(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("no-pipeline");
        var before = gitlab.get(project, iid).sha();
        assertThat(gitlab.headPipeline(project, iid).orElseThrow().ranFor(before)).isTrue();

        server.gitlab().createPipelines(project, false);
        var pushed = push("no-pipeline", "alice\nbob\nerin\n");

        var remote = gitlab.getWithHeadPipeline(project, iid);
        assertThat(remote.sha()).isEqualTo(pushed);
        var stale = remote.headPipeline().orElseThrow();
        assertThat(stale.status()).as("GitLab still answers the previous head's pipeline").isEqualTo(PipelineStatus.PASSED);
        assertThat(stale.ranFor(pushed)).as("it did not run for the new head").isFalse();
        assertThat(stale.sha()).isEqualTo(before);
        assertThat(gitlab.headPipeline(project, iid).orElseThrow().ranFor(pushed)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aPipelineCreatedLateCountsForTheNewHeadOnlyOnceItExists(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("late");
        var before = gitlab.get(project, iid).sha();
        server.gitlab().setPipelineCreationDelay(Duration.ofMillis(800));

        var pushed = push("late", "alice\nbob\nfrank\n");

        var remote = gitlab.getWithHeadPipeline(project, iid);
        assertThat(remote.sha()).isEqualTo(pushed);
        assertThat(remote.headPipeline().orElseThrow().sha()).as("not created yet: the previous head's").isEqualTo(before);
        await().atMost(SETTLE).until(() -> gitlab.headPipeline(project, iid).orElseThrow().ranFor(pushed));
        assertThat(gitlab.headPipeline(project, iid).orElseThrow().status()).isEqualTo(PipelineStatus.PASSED);
    }

    @Test
    void aMergedResultsPipelineOfThePreviousHeadDoesNotCountForTheNewHead() {
        server.gitlab().setBehaviour(Profile.GITLAB_17, true, Duration.ZERO);
        var iid = open("merged-results-stale");
        var before = gitlab.get(project, iid).sha();
        push("merged-results-stale", "alice\nbob\ngrace\n");
        var head = gitlab.get(project, iid).sha();
        assertThat(gitlab.headPipeline(project, iid).orElseThrow().ranFor(head)).as("its merge commit's second parent").isTrue();

        server.gitlab().createPipelines(project, false);
        var pushed = push("merged-results-stale", "alice\nbob\nheidi\n");

        assertThat(pushed).isNotEqualTo(before);
        var pipeline = gitlab.headPipeline(project, iid).orElseThrow();
        assertThat(pipeline.ranFor(pushed)).isFalse();
        assertThat(pipeline.status()).as("GitLab still answers the previous head's").isEqualTo(PipelineStatus.PASSED);
    }

    @Test
    void gitLabsAnswerWithAnOlderHeadPipelineIsAttributedToItsOwnCommit() {
        var wiremock = new WireMockServer(WireMockConfiguration.options().dynamicPort());
        wiremock.start();
        try (var context = AdapterContext.start(wiremock.baseUrl(), Map.of())) {
            var base = "/api/v4/projects/" + UrlEncoder.urlEncode("platform/access-config");
            var head = "9999999999999999999999999999999999999999";
            var previous = "8888888888888888888888888888888888888888";
            var mergeCommit = "7777777777777777777777777777777777777777";
            // GitLab's answer after a push that created no pipeline: head_pipeline is the stored, previous head's
            var stale = documentedMergeRequest(head, previous, "changeflow/op-6f1c7e52");
            wiremock.stubFor(get(urlPathEqualTo(base + "/merge_requests/133")).willReturn(okJson(stale.toString())));
            // a merged-results pipeline: its sha is the merge commit's, whose parents are the target's head and the head
            var mergedResults = documentedMergeRequest(head, mergeCommit, "refs/merge-requests/134/merge");
            wiremock.stubFor(get(urlPathEqualTo(base + "/merge_requests/134")).willReturn(okJson(mergedResults.toString())));
            wiremock.stubFor(get(urlPathEqualTo(base + "/repository/commits/" + mergeCommit)).willReturn(okJson(
                    "{\"id\":\"" + mergeCommit + "\",\"parent_ids\":[\"" + "6".repeat(40) + "\",\"" + head + "\"]}")));
            wiremock.stubFor(get(urlPathEqualTo(base + "/repository/commits/" + previous)).willReturn(okJson(
                    "{\"id\":\"" + previous + "\",\"parent_ids\":[\"" + "5".repeat(40) + "\"]}")));
            var gitlab = context.mergeRequests();

            assertThat(gitlab.headPipeline("platform/access-config", 133))
                    .contains(new Pipeline(1287101, previous, PipelineStatus.PASSED));
            assertThat(gitlab.getWithHeadPipeline("platform/access-config", 133).headPipeline().orElseThrow().ranFor(head))
                    .isFalse();
            assertThat(gitlab.headPipeline("platform/access-config", 134))
                    .contains(new Pipeline(1287101, head, PipelineStatus.PASSED));
        } finally {
            wiremock.stop();
        }
    }

    /** GitLab's documented single merge request, at {@code sha}, whose head pipeline ran for {@code pipelineSha}. */
    private static ObjectNode documentedMergeRequest(String sha, String pipelineSha, String pipelineRef) {
        try (var in = GitLabHeadPipelineTest.class.getResourceAsStream("/gitlab/documented/merge-request.json")) {
            var json = (ObjectNode) new ObjectMapper().readTree(in);
            json.put("sha", sha);
            var pipeline = (ObjectNode) json.get("head_pipeline");
            pipeline.put("sha", pipelineSha);
            pipeline.put("ref", pipelineRef);
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long open(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + branch, List.of(new FileChange("grants/db.txt", "alice\nbob\n")));
        var iid = gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
        await().atMost(SETTLE).until(() -> gitlab.headPipeline(project, iid).map(p -> p.status() == PipelineStatus.PASSED)
                .orElse(false));
        return iid;
    }

    /** A person's push to {@code branch}: the branch's new head. */
    private String push(String branch, String content) {
        server.gitlab().push(project, branch, Map.of("grants/db.txt", content), "Push to " + branch);
        return gitlab.branchHead(project, branch).orElseThrow();
    }
}
