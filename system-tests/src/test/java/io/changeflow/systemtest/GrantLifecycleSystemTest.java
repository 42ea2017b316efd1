package io.changeflow.systemtest;

import static io.changeflow.systemtest.Grants.awaitStatus;
import static io.changeflow.systemtest.Grants.binding;
import static io.changeflow.systemtest.Grants.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The grant's whole life on the packaged application (issue 18): a grant until now + 1 minute reaches VALIDATED,
 * then the expiry job removes its line from main through a merged removal merge request and the row ends EXPIRED,
 * and a new request for the same subject and target is accepted and reaches VALIDATED. Then a renewal (another
 * expiry) rewrites the line, the same expiry again is 409 ALREADY_IN_EFFECT, and giving the grant up removes it
 * (REVOKED).
 */
class GrantLifecycleSystemTest {

    private static final String EXPIRY_TARGET = "db-prod-readonly";
    private static final String EXPIRY_FILE = "grants/db-prod-readonly.txt";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1)
            .withInstanceProperty("changeflow.grants.expiry-every", "2s")
            .withInstances("solo");

    @Test
    void aGrantExpiresThroughAMergedRemovalMergeRequestAndCanBeAppliedForAgain() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var until = Instant.now().plus(Duration.ofSeconds(60)).truncatedTo(ChronoUnit.SECONDS);
        var grant = awaitStatus(alice, submit(alice, EXPIRY_TARGET, until), "VALIDATED", Duration.ofSeconds(60));
        assertThat(cluster.sims().grantLinesOnMain(EXPIRY_FILE, grant.operationId())).isEqualTo(1);
        assertThat(cluster.sims().fileOnMain(EXPIRY_FILE).orElseThrow()).contains("alice until=" + until);

        var started = System.nanoTime();
        var expired = Poll.until("alice's row on " + EXPIRY_TARGET + " to be EXPIRED", Duration.ofSeconds(150),
                () -> binding(alice, EXPIRY_TARGET), row -> row.map(r -> "EXPIRED".equals(r.path("status").asString()))
                        .orElse(false)).orElseThrow();
        Figures.record("grant expiry: from VALIDATED to EXPIRED", (System.nanoTime() - started) / 1_000_000
                + " ms (expiry at VALIDATED + up to 60 s, job every 2 s, batch rounds every 2 s)");
        assertThat(Instant.now()).isAfter(until);

        var removal = new RequestView(otto.operation(expired.path("operationId").asString()));
        assertThat(removal.status()).isEqualTo("EXPIRED");
        assertThat(removal.json().path("requester").asString()).isEqualTo("system");
        assertThat(cluster.sims().fileOnMain(EXPIRY_FILE).orElseThrow()).doesNotContain("alice until=");
        assertThat(cluster.sims().grantLinesOnMain(EXPIRY_FILE, grant.operationId())).isZero();
        var mergeRequests = cluster.sims().mergeRequestsFrom("changeflow/batch-" + removal.batchId());
        assertThat(mergeRequests).as("the removal's merge request").singleElement()
                .satisfies(mr -> assertThat(mr.path("state").asString()).isEqualTo("merged"));
        assertThat(removal.mergeRequestIid()).isEqualTo(mergeRequests.getFirst().path("iid").asLong());

        var again = awaitStatus(alice, submit(alice, EXPIRY_TARGET, null), "VALIDATED", Duration.ofSeconds(60));
        assertThat(cluster.sims().grantLinesOnMain(EXPIRY_FILE, again.operationId())).isEqualTo(1);
        assertThat(binding(alice, EXPIRY_TARGET).orElseThrow().path("operationId").asString()).isEqualTo(again.operationId());
    }

    @Test
    void aRenewalRewritesTheLineTheSameExpiryIsAlreadyInEffectAndGivingUpRemovesIt() {
        var bob = cluster.client("solo", "bob");
        var target = InstanceSettings.plainTargetKey(1);
        var file = "grants/" + target + ".txt";
        var friday = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.SECONDS);
        awaitStatus(bob, submit(bob, target, friday), "VALIDATED", Duration.ofSeconds(60));

        var nextMonth = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
        var renewal = awaitStatus(bob, submit(bob, target, nextMonth), "VALIDATED", Duration.ofSeconds(60));
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).contains("bob until=" + nextMonth + " op="
                + renewal.operationId()).doesNotContain("until=" + friday);
        var same = bob.submit(UUID.randomUUID().toString(), target, "bob", "system test", nextMonth.toString());
        assertThat(same.status()).as(same.toString()).isEqualTo(409);
        assertThat(same.code()).isEqualTo("ALREADY_IN_EFFECT");

        var gaveUp = bob.post("/api/bindings/" + target + "/give-up", null);
        assertThat(gaveUp.status()).as(gaveUp.toString()).isEqualTo(202);
        assertThat(gaveUp.code()).isEqualTo("REMOVAL_ACCEPTED");
        var revoked = awaitStatus(bob, new RequestView(gaveUp.data()), "REVOKED", Duration.ofSeconds(60));
        assertThat(revoked.json().path("requester").asString()).isEqualTo("bob");
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).doesNotContain("bob until=");
        assertThat(binding(bob, target).orElseThrow().path("status").asString()).isEqualTo("REVOKED");
    }
}
