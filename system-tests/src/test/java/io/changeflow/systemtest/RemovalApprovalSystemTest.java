package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 18 item 1's per-target setting on the packaged application: a target configured with
 * {@code changeflow.catalog.targets[n].removals: approval}. The expiry of a grant asks the approval simulator; the
 * approver rejects it, so the grant stays in effect with its line on main (REMOVAL_REJECTED) and the expiry job, running
 * every 2 s, does not ask again; then an operator's revocation asks again, is approved, and the removal round takes the
 * line out of main (REVOKED).
 */
class RemovalApprovalSystemTest {

    private static final String TARGET = InstanceSettings.plainTargetKey(1);
    private static final String FILE = "grants/" + TARGET + ".txt";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1)
            .withInstanceProperty("changeflow.catalog.targets[3].removals", "approval")
            .withInstanceProperty("changeflow.grants.expiry-every", "2s")
            .withInstances("solo");

    @AfterEach
    void approveAutomaticallyAgain() {
        cluster.sims().approval().mode(ApprovalSimulator.Mode.AUTO);
    }

    @Test
    void aRejectedExpiryKeepsTheGrantAndAnApprovedRevocationRemovesIt() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var approval = cluster.sims().approval();
        var until = Instant.now().plus(Duration.ofSeconds(20)).truncatedTo(ChronoUnit.SECONDS);
        var submitted = alice.submit(UUID.randomUUID().toString(), TARGET, "alice", "system test", until.toString());
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var grant = Poll.until("the grant to be VALIDATED", Duration.ofSeconds(60),
                () -> alice.request(submitted.data().path("operationId").asString()),
                v -> "VALIDATED".equals(v.status()) || v.isAtRest());
        assertThat(grant.status()).as(grant.toString()).isEqualTo("VALIDATED");
        approval.mode(ApprovalSimulator.Mode.MANUAL);

        var asked = Poll.until("the expiry to wait for the approver", Duration.ofSeconds(90),
                () -> binding(alice), row -> row.map(r -> "APPROVAL_SENT".equals(r.path("status").asString())).orElse(false))
                .orElseThrow();
        var expiry = asked.path("operationId").asString();
        assertThat(new RequestView(otto.operation(expiry)).json().path("kind").asString()).isEqualTo("EXPIRY");
        var ticket = approval.byOperationId(expiry).orElseThrow();
        approval.decide(ticket.ticket(), false, "approver");

        var kept = Poll.until("the grant to stay, its removal not approved", Duration.ofSeconds(60), () -> binding(alice),
                row -> row.map(r -> "REMOVAL_REJECTED".equals(r.path("status").asString())).orElse(false)).orElseThrow();
        assertThat(kept.path("operationId").asString()).isEqualTo(expiry);
        assertThat(cluster.sims().fileOnMain(FILE).orElseThrow()).contains("alice until=" + until);
        var pendingBefore = approval.pending().size();
        // three more runs of the expiry job: nothing asked again, nothing removed
        sleep(Duration.ofSeconds(6));
        assertThat(binding(alice).orElseThrow().path("operationId").asString()).isEqualTo(expiry);
        assertThat(binding(alice).orElseThrow().path("status").asString()).isEqualTo("REMOVAL_REJECTED");
        assertThat(approval.pending()).hasSize(pendingBefore);
        assertThat(cluster.sims().fileOnMain(FILE).orElseThrow()).contains("alice until=" + until);

        var revoked = otto.post("/ops/bindings/alice/" + TARGET + "/revoke", null);
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(202);
        var revocation = revoked.data().path("operationId").asString();
        var revocationTicket = Poll.until("the revocation's approval ticket", Duration.ofSeconds(30),
                () -> approval.byOperationId(revocation), Optional::isPresent).orElseThrow();
        var started = System.nanoTime();
        approval.decide(revocationTicket.ticket(), true, "approver");
        var ended = Poll.until("the revocation to end REVOKED", Duration.ofSeconds(90), () -> alice.request(revocation),
                v -> "REVOKED".equals(v.status()) || v.isAtRest());
        assertThat(ended.status()).as(ended.toString()).isEqualTo("REVOKED");
        Figures.record("approved revocation (removals: approval): from the decision to REVOKED",
                (System.nanoTime() - started) / 1_000_000 + " ms");
        assertThat(cluster.sims().fileOnMain(FILE).orElseThrow()).doesNotContain("alice until=");
        assertThat(cluster.sims().grantLinesOnMain(FILE, grant.operationId())).isZero();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Optional<JsonNode> binding(ApiClient client) {
        for (var row : client.bindings()) {
            if (row.path("targetKey").asString().equals(TARGET)) {
                return Optional.of(row);
            }
        }
        return Optional.empty();
    }
}
