package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The main journey on the packaged application: one instance (production profile) on a real
 * database, the simulators in their own host. A request goes from submission to VALIDATED in both
 * step orders; the order is switched at runtime through the dynamic configuration file, and the
 * request submitted before the switch keeps its order.
 */
class RequestLifecycleSystemTest {

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1).withInstances("solo");

    @Test
    void aRequestReachesValidatedInBothStepOrdersWithTheOrderSwitchedAtRuntime() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        assertThat(otto.configEntry("workflow.approveFirst").path("resolved").asString())
                .as("the step order before the switch").isIn("false", "off", "OFF");

        var createFirst = submit(alice, "db-prod-readonly", "svc-create-first");
        assertThat(createFirst.stepOrder()).isEqualTo("CREATE_FIRST");

        cluster.writeDynamicConfig(Map.of("workflow.approveFirst", "true"));
        var entry = Poll.until("/ops/config to show workflow.approveFirst=true from the file", Duration.ofSeconds(15),
                () -> otto.configEntry("workflow.approveFirst"),
                e -> "true".equals(e.path("raw").asString(null)) && "file".equals(e.path("source").asString(null))
                        && e.path("resolved").asString("").equalsIgnoreCase("true"));
        Figures.record("workflow.approveFirst after the switch", entry.toString());

        // another target (another grant file): requests for one target are ConcurrentRequestsSystemTest's
        var approveFirst = submit(alice, InstanceSettings.plainTargetKey(1), "svc-approve-first");
        assertThat(approveFirst.stepOrder()).isEqualTo("APPROVE_FIRST");

        // both orders live at once: the request submitted before the switch keeps its order
        var started = System.nanoTime();
        var doneCreateFirst = awaitValidated(alice, createFirst.operationId());
        var doneApproveFirst = awaitValidated(alice, approveFirst.operationId());
        Figures.record("submit to VALIDATED, both orders in flight together",
                "create first and approve first both VALIDATED " + (System.nanoTime() - started) / 1_000_000
                        + " ms after the second submission");

        assertThat(doneCreateFirst.stepOrder()).isEqualTo("CREATE_FIRST");
        assertThat(doneApproveFirst.stepOrder()).isEqualTo("APPROVE_FIRST");
        for (var view : new RequestView[] {doneCreateFirst, doneApproveFirst}) {
            assertThat(Invariants.deliveredOnItsOwnMergeRequest(cluster.sims(), view)).as(view.toString()).isEmpty();
            assertThat(view.hint()).isEqualTo("NONE");
        }
        assertThat(doneCreateFirst.mergeRequestIid()).isNotEqualTo(doneApproveFirst.mergeRequestIid());
        assertThat(Invariants.repeatedApprovalAttempts(cluster.sims().gitlabCalls())).isEmpty();
    }

    /**
     * The instances run the production profile (the simulators live in the test's own host): fault
     * injection and the simulators' APIs are not there for anyone, operators included.
     */
    @Test
    void theProductionProfileServesNeitherFaultInjectionNorSimulators() {
        var otto = cluster.client("solo", "otto");
        for (var path : List.of("/sandbox/faults", "/sandbox/faults/approval/controls", "/sandbox/faults/deploy/controls",
                "/sim/gitlab/api/v4/projects", "/sim/gitlab/_control/timings", "/sim/approval/api/approvals",
                "/sim/approval/inbox")) {
            var read = otto.get(path);
            var write = otto.put(path, Map.of("errorRate", 1.0));
            assertThat(read.status()).as("GET " + path + ": " + read).isIn(401, 403, 404);
            assertThat(write.status()).as("PUT " + path + ": " + write).isIn(401, 403, 404, 405);
            assertThat(read.body() + write.body()).doesNotContainIgnoringCase("errorRate").doesNotContain("Exception");
        }
    }

    /** What monitoring reads without an identity shows no file system path (reliability finding 4). */
    @Test
    void healthAndMetricsShowNoFileSystemPaths() {
        var anonymous = cluster.client("solo", null);
        var repository = java.nio.file.Path.of("").toAbsolutePath().getParent().toString();
        for (var path : List.of("/actuator/health", "/actuator/prometheus")) {
            var response = anonymous.get(path, Map.of("Accept", "*/*"));
            assertThat(response.status()).as(path).isEqualTo(200);
            assertThat(response.body()).as(path).isNotBlank().doesNotContain(repository).doesNotContain("diskSpace")
                    .doesNotContain("disk_free_bytes");
        }
        // an empty Accept header means "anything" (it made the Prometheus scrape fail with a 500)
        var scrape = anonymous.get("/actuator/prometheus", Map.of("Accept", ""));
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
    }

    private static RequestView submit(ApiClient client, String target, String subject) {
        var response = client.submit(target, subject, "system test");
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        assertThat(response.code()).isEqualTo("ACCEPTED");
        assertThat(response.header("Location")).endsWith("/api/requests/" + response.data().path("operationId").asString());
        return new RequestView(response.data());
    }

    private static RequestView awaitValidated(ApiClient client, String operationId) {
        return Poll.until("request " + operationId + " to be VALIDATED", Duration.ofSeconds(60),
                () -> client.request(operationId), v -> "VALIDATED".equals(v.status()) || v.isAtRest());
    }
}
