package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.Poll;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20, acceptance 2, on the packaged application: every deploy callback is lost and there is a
 * single request (no later merge request raises the watermark, so reconciliation cannot infer it).
 * After the deploy deadline the request is DEPLOY_UNCONFIRMED with CONTACT_MAINTAINERS; the
 * operator's "confirm in effect" makes it VALIDATED exactly once (the validated counter grows by one).
 */
class DeployDeadlineSystemTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withSimulatorProperty("sandbox.deploy.lost-share", "1")
            .withInstanceProperty("changeflow.workflow.deploy-deadline", "15s")
            .withInstanceProperty("changeflow.workflow.deploy-deadline-every", "2s")
            .withInstances("solo");

    @Test
    void aMergedRequestWhoseDeployReportIsLostBecomesUnconfirmedAndAnOperatorConfirmsItOnce() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var submitted = alice.submit("db-prod-readonly", "svc-deploy-lost", "system test: deploy deadline");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();

        var merged = Poll.until("request " + id + " to be merged", Duration.ofSeconds(90), () -> alice.request(id),
                v -> "MERGED".equals(v.status()) || "DEPLOY_UNCONFIRMED".equals(v.status()) || v.isTerminal());
        assertThat(merged.status()).as(merged.toString()).isIn("MERGED", "DEPLOY_UNCONFIRMED");
        var mergedAt = System.nanoTime();

        var unconfirmed = Poll.until("request " + id + " to be DEPLOY_UNCONFIRMED", DEADLINE.plusSeconds(45),
                () -> alice.request(id), v -> !"MERGED".equals(v.status()));
        Figures.record("merged to DEPLOY_UNCONFIRMED with every deploy callback lost (deadline 15 s, checked every 2 s)",
                (System.nanoTime() - mergedAt) / 1_000_000 + " ms");
        assertThat(unconfirmed.status()).as(unconfirmed.toString()).isEqualTo("DEPLOY_UNCONFIRMED");
        assertThat(unconfirmed.step()).isEqualTo("DEPLOY_UNCONFIRMED");
        assertThat(unconfirmed.hint()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(unconfirmed.isAtRest()).isTrue();
        assertThat(unconfirmed.json().path("detail").asString()).contains("no deploy report confirmed it within 15 s");
        assertThat(unconfirmed.json().path("hint").path("message").asString()).contains("contact the maintainers");
        assertThat(cluster.sims().deploy().lostCallbacks()).as("the deploy pipeline's report was lost").isNotEmpty();

        var operation = otto.operation(id);
        assertThat(operation.path("allowedActions").toString()).contains("CONFIRM_DEPLOYED").contains("MARK_DEPLOY_FAILED");
        var before = validatedTotal();

        var confirm = otto.post("/ops/operations/" + id + "/confirm-deployed", null);
        assertThat(confirm.status()).as(confirm.toString()).isEqualTo(200);
        assertThat(confirm.code()).isEqualTo("CONFIRMED");
        var validated = alice.request(id);
        assertThat(validated.status()).isEqualTo("VALIDATED");
        assertThat(validated.hint()).isEqualTo("NONE");
        assertThat(validatedTotal()).as("changeflow_requests_validated_total").isEqualTo(before + 1);

        var again = otto.post("/ops/operations/" + id + "/confirm-deployed", null);
        assertThat(again.status()).as(again.toString()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("ALREADY_IN_EFFECT");
        assertThat(again.body()).doesNotContain("Exception").doesNotContain("io.changeflow");
        assertThat(validatedTotal()).as("a second confirm counts nothing").isEqualTo(before + 1);

        var audit = otto.operation(id).path("audit").toString();
        assertThat(audit).contains("CONFIRM_DEPLOYED").contains("otto");
    }

    /** The sum of {@code changeflow_requests_validated_total} over its targets, as Prometheus scrapes it (as an operator). */
    private static double validatedTotal() {
        var scrape = cluster.client("solo", "otto").get("/actuator/prometheus", Map.of("Accept", "*/*"));
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
        return scrape.body().lines()
                .filter(line -> line.startsWith("changeflow_requests_validated_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
