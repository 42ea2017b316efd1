package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Idempotency as designed (design note 01, 3.6): duplicates of one submission (the same operationId and
 * payload) sent at the same moment to two instances of the packaged app all get the original's answer, 202
 * with the one request's view and Location, never 409 IDEMPOTENCY_IN_FLIGHT, and one request exists.
 */
class DuplicateSubmissionSystemTest {

    static final int DUPLICATES = 6;

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withInstances("a", "b");

    @Test
    void concurrentDuplicatesOnTwoInstancesAllGetTheOriginalsAnswer() throws Exception {
        var id = UUID.randomUUID().toString();
        var clients = List.of(cluster.client("a", "alice"), cluster.client("b", "alice"));
        var barrier = new CyclicBarrier(DUPLICATES);
        var pool = Executors.newFixedThreadPool(DUPLICATES);
        List<ApiResponse> answers = new ArrayList<>();
        try {
            var sent = new ArrayList<CompletableFuture<ApiResponse>>();
            for (var i = 0; i < DUPLICATES; i++) {
                var client = clients.get(i % 2);
                sent.add(CompletableFuture.supplyAsync(() -> {
                    await(barrier);
                    return client.submit(id, "db-prod-readonly", "svc-duplicates", "sent twice at once");
                }, pool));
            }
            for (var answer : sent) {
                answers.add(answer.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        Figures.record("concurrent duplicate submissions (" + DUPLICATES + " on 2 instances)", answers.stream()
                .map(a -> a.status() + " " + a.code() + " " + a.latency().toMillis() + " ms").toList().toString());

        assertThat(answers).allSatisfy(a -> {
            assertThat(a.status()).as(a.toString()).isEqualTo(202);
            assertThat(a.code()).isIn("ACCEPTED", "DUPLICATE_SUBMIT");
            assertThat(a.data().path("operationId").asString()).isEqualTo(id);
            assertThat(a.header("Location")).isEqualTo("/api/requests/" + id);
            assertThat(a.data().path("subjectId").asString()).isEqualTo("svc-duplicates");
        });
        assertThat(answers).filteredOn(a -> a.code().equals("ACCEPTED")).as("one original").hasSize(1);
        var mine = cluster.client("a", "alice").get("/api/requests");
        var sameRequest = new ArrayList<String>();
        mine.data().path("items").forEach(item -> {
            if (item.path("subjectId").asString("").equals("svc-duplicates")) {
                sameRequest.add(item.path("operationId").asString());
            }
        });
        assertThat(sameRequest).as("one request exists").containsExactly(id);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
