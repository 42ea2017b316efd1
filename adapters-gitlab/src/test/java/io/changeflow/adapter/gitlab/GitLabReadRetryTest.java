package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.domain.mr.MergeRequestState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gitlab4j.api.utils.UrlEncoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The exact HTTP exchanges of the adapter's read retries (WireMock, so every try is counted): an idempotent
 * read that GitLab failed is made again a bounded number of times, a write never; and the request that
 * rewrites a branch ({@code start_branch} and {@code force}, GitLab's documented way to overwrite a branch).
 */
class GitLabReadRetryTest {

    private static final String PROJECT = "platform/retry";
    private static final String PROJECT_API = "/api/v4/projects/platform%2Fretry";
    private static final String MERGE_REQUEST = PROJECT_API + "/merge_requests/133";
    private static final String COMMITS = PROJECT_API + "/repository/commits";
    private static final String FILE_ON_MAIN = PROJECT_API + "/repository/files/" + UrlEncoder.urlEncode("grants/db.txt");

    @RegisterExtension
    static final WireMockExtension wiremock = WireMockExtension.newInstance()
            .options(WireMockConfiguration.options().dynamicPort()).build();

    private AdapterContext adapter;

    @BeforeEach
    void freshAdapter() {
        adapter = adapterWith(Map.of());
    }

    @AfterEach
    void closeAdapter() {
        adapter.close();
    }

    private static AdapterContext adapterWith(Map<String, String> properties) {
        var all = new HashMap<>(Map.of("read-retries", "2", "read-retry-backoff", "50ms"));
        all.putAll(properties);
        return AdapterContext.start(wiremock.baseUrl(), all);
    }

    @Test
    void readsAgainAfterAServerErrorAndAnswersWhatTheRetryRead() {
        wiremock.stubFor(get(urlPathEqualTo(MERGE_REQUEST)).inScenario("flaky").whenScenarioStateIs(STARTED)
                .willReturn(status(503)).willSetStateTo("healthy"));
        wiremock.stubFor(get(urlPathEqualTo(MERGE_REQUEST)).inScenario("flaky").whenScenarioStateIs("healthy")
                .willReturn(okJson(documented("merge-request.json"))));

        var mr = adapter.mergeRequests().get(PROJECT, 133);

        assertThat(mr.state()).isEqualTo(MergeRequestState.OPENED);
        assertThat(mr.iid()).isEqualTo(133);
        wiremock.verify(2, getRequestedFor(urlPathEqualTo(MERGE_REQUEST)));
    }

    @Test
    void aLostResponseToAReadIsReadAgain() {
        wiremock.stubFor(get(urlPathEqualTo(PROJECT_API)).inScenario("lost").whenScenarioStateIs(STARTED)
                .willReturn(status(504)).willSetStateTo("answered"));
        wiremock.stubFor(get(urlPathEqualTo(PROJECT_API)).inScenario("lost").whenScenarioStateIs("answered")
                .willReturn(okJson(documented("project.json"))));

        assertThat(adapter.mergeRequests().defaultBranch(PROJECT)).isEqualTo("main");
        wiremock.verify(2, getRequestedFor(urlPathEqualTo(PROJECT_API)));
    }

    @Test
    void givesUpAfterTheConfiguredRetriesWithGitLabsLastStatusAfterPausingBetweenThem() {
        wiremock.stubFor(get(urlPathEqualTo(MERGE_REQUEST)).willReturn(status(502)));

        var started = System.nanoTime();
        assertThatThrownBy(() -> adapter.mergeRequests().get(PROJECT, 133))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.isTransient()).isTrue();
                });

        wiremock.verify(3, getRequestedFor(urlPathEqualTo(MERGE_REQUEST)));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("50 ms, then 100 ms").isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void readsOnlyOnceWhenRetriesAreTurnedOff() {
        adapter.close();
        adapter = adapterWith(Map.of("read-retries", "0"));
        wiremock.stubFor(get(urlPathEqualTo(MERGE_REQUEST)).willReturn(status(500)));

        assertThatThrownBy(() -> adapter.mergeRequests().get(PROJECT, 133)).isInstanceOf(ExternalCallException.class);

        wiremock.verify(1, getRequestedFor(urlPathEqualTo(MERGE_REQUEST)));
    }

    @Test
    void neverReadsAgainAfterGitLabsOwnAnswer() {
        wiremock.stubFor(get(urlPathEqualTo(PROJECT_API)).willReturn(aResponse().withStatus(403)
                .withHeader("Content-Type", "application/json").withBody("{\"message\": \"403 Forbidden\"}")));

        assertThatThrownBy(() -> adapter.mergeRequests().defaultBranch(PROJECT))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(403));

        wiremock.verify(1, getRequestedFor(urlPathEqualTo(PROJECT_API)));
    }

    @Test
    void everyTryGoesThroughTheBreakerWhichStopsTheRetriesWhenItOpens() {
        adapter.close();
        adapter = adapterWith(Map.of("circuit-breaker.minimum-number-of-calls", "2",
                "circuit-breaker.sliding-window-size", "2", "circuit-breaker.wait-duration-in-open-state", "1m"));
        wiremock.stubFor(get(urlPathEqualTo(MERGE_REQUEST)).willReturn(status(503)));

        assertThatThrownBy(() -> adapter.mergeRequests().get(PROJECT, 133))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CIRCUIT_OPEN));

        wiremock.verify(2, getRequestedFor(urlPathEqualTo(MERGE_REQUEST)));
    }

    /**
     * A commit whose answer was lost (GitLab applied it, answered 504) is tried again: the new attempt reads
     * the branch first, finds the content there and commits nothing, so nothing is committed twice.
     */
    @Test
    void aCommitWhoseAnswerWasLostIsTriedAgainAndNotCommittedTwice() {
        var onBranch = PROJECT_API + "/repository/files/" + UrlEncoder.urlEncode("grants/db.txt");
        var before = documented("repository-file.json").replace("YWxpY2UKYm9iCg==", "YWxpY2UK"); // "alice\n"
        wiremock.stubFor(get(urlPathEqualTo(onBranch)).inScenario("commit").whenScenarioStateIs(STARTED)
                .willReturn(okJson(before)));
        wiremock.stubFor(post(urlPathEqualTo(COMMITS)).inScenario("commit").whenScenarioStateIs(STARTED)
                .willReturn(status(504)).willSetStateTo("applied"));
        wiremock.stubFor(get(urlPathEqualTo(onBranch)).inScenario("commit").whenScenarioStateIs("applied")
                .willReturn(okJson(documented("repository-file.json")))); // "alice\nbob\n"

        adapter.mergeRequests().commit(PROJECT, "changeflow/op-1", "Grant bob", List.of(new FileChange("grants/db.txt", "alice\nbob\n")));

        wiremock.verify(1, postRequestedFor(urlPathEqualTo(COMMITS)));
        wiremock.verify(2, getRequestedFor(urlPathEqualTo(onBranch)));
    }

    @Test
    void aBranchWhoseCreationFailedTransientlyIsCreatedByTheNextTry() {
        var branches = PROJECT_API + "/repository/branches";
        wiremock.stubFor(post(urlPathEqualTo(branches)).inScenario("branch").whenScenarioStateIs(STARTED)
                .willReturn(status(503)).willSetStateTo("healthy"));
        wiremock.stubFor(post(urlPathEqualTo(branches)).inScenario("branch").whenScenarioStateIs("healthy")
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"name\": \"changeflow/op-1\", \"merged\": false, \"protected\": false}")));

        adapter.mergeRequests().createBranch(PROJECT, "changeflow/op-1", "main");

        wiremock.verify(2, postRequestedFor(urlPathEqualTo(branches)));
    }

    @Test
    void neverRetriesARewriteWhichWouldCommitTwice() {
        wiremock.stubFor(get(urlPathEqualTo(FILE_ON_MAIN)).willReturn(okJson(documented("repository-file.json"))));
        wiremock.stubFor(post(urlPathEqualTo(COMMITS)).willReturn(status(503)));

        assertThatThrownBy(() -> adapter.mergeRequests().rewriteBranch(PROJECT, "changeflow/op-1", "main", "Grant bob",
                List.of(new FileChange("grants/db.txt", "alice\nbob\n"))))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(503));

        wiremock.verify(1, postRequestedFor(urlPathEqualTo(COMMITS)));
    }

    @Test
    void rewritesABranchAsOneForcedCommitOnTheStartBranchUpdatingFilesThatExistThereAndCreatingTheOthers() {
        wiremock.stubFor(get(urlPathEqualTo(FILE_ON_MAIN)).willReturn(okJson(documented("repository-file.json"))));
        wiremock.stubFor(get(urlPathEqualTo(PROJECT_API + "/repository/files/" + UrlEncoder.urlEncode("grants/new.txt")))
                .willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\": \"404 File Not Found\"}")));
        wiremock.stubFor(post(urlPathEqualTo(COMMITS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\": \"ed899a2f4b50b4370feeea94676502b42383c746\", \"short_id\": \"ed899a2f\","
                        + " \"title\": \"Grant bob\", \"message\": \"Grant bob\", \"parent_ids\": [\"6104942438c14ec7bd21c6cd5bd995272b3faff6\"]}")));

        adapter.mergeRequests().rewriteBranch(PROJECT, "changeflow/op-1", "main", "Grant bob", List.of(
                new FileChange("grants/db.txt", "alice\nbob\n"), new FileChange("grants/new.txt", "carol\n")));

        wiremock.verify(1, postRequestedFor(urlPathEqualTo(COMMITS)).withRequestBody(equalToJson("""
                {"branch": "changeflow/op-1", "start_branch": "main", "force": true, "commit_message": "Grant bob",
                 "actions": [
                   {"action": "update", "file_path": "grants/db.txt", "content": "alice\\nbob\\n", "encoding": "text"},
                   {"action": "create", "file_path": "grants/new.txt", "content": "carol\\n", "encoding": "text"}]}
                """, false, true)));
    }

    private static ResponseDefinitionBuilder status(int status) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody("{\"message\": \"" + status + "\"}");
    }

    private static String documented(String name) {
        try (var in = GitLabReadRetryTest.class.getResourceAsStream("/gitlab/documented/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
