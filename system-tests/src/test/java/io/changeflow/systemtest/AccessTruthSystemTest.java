package io.changeflow.systemtest;

import static io.changeflow.systemtest.Grants.awaitStatus;
import static io.changeflow.systemtest.Grants.binding;
import static io.changeflow.systemtest.Grants.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 36 on the packaged application: what the service says about a grant agrees with main's grant file when the
 * world does something. A renewal waits for an approver across the until of the grant it renews: by then plus one
 * expiry run and a removal round, the line is gone from main, the relationship is EXPIRED and the renewal withdrawn;
 * the approver's late yes grants nothing. An operator's close while the merge request is being opened leaves no open
 * merge request. One shared instance, expiry job every 2 s.
 */
class AccessTruthSystemTest {

    /** The expiry job's interval here (2 s) and a removal round (2 s) with its pipeline and deploy confirmation. */
    private static final Duration AGREED_WITHIN = Duration.ofSeconds(45);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(2)
            .withInstanceProperty("changeflow.grants.expiry-every", "2s")
            .withInstances("solo");

    @AfterEach
    void approveAutomaticallyAgain() {
        cluster.sims().approval().mode(ApprovalSimulator.Mode.AUTO);
    }

    @Test
    void aRenewalWaitingAcrossTheUntilDoesNotKeepTheLineAndALateYesGrantsNothing() {
        var target = InstanceSettings.plainTargetKey(1);
        var file = "grants/" + target + ".txt";
        var alice = cluster.client("solo", "alice");
        var approval = cluster.sims().approval();
        var until = Instant.now().plus(Duration.ofSeconds(25)).truncatedTo(ChronoUnit.SECONDS);
        var grant = awaitStatus(alice, submit(alice, target, until), "VALIDATED", Duration.ofSeconds(60));
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).contains("alice until=" + until);

        approval.mode(ApprovalSimulator.Mode.MANUAL);
        var renewal = submit(alice, target, until.plus(Duration.ofDays(30)));
        var ticket = Poll.until("the renewal's approval ticket", Duration.ofSeconds(20),
                () -> approval.byOperationId(renewal.operationId()), Optional::isPresent).orElseThrow();
        assertThat(Instant.now()).as("the renewal waits before the until").isBefore(until);

        var expired = Poll.until("alice's row on " + target + " to be EXPIRED", Duration.between(Instant.now(), until)
                .plus(AGREED_WITHIN), () -> binding(alice, target),
                row -> row.map(r -> "EXPIRED".equals(r.path("status").asString())).orElse(false)).orElseThrow();
        Figures.record("renewal waiting across the until: from the until to EXPIRED",
                Duration.between(until, Instant.now()).toMillis() + " ms (expiry job every 2 s, rounds every 2 s)");
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).as("main agrees").doesNotContain("alice until=");
        assertThat(cluster.sims().grantLinesOnMain(file, grant.operationId())).isZero();
        assertThat(expired.path("operationId").asString()).isNotEqualTo(renewal.operationId());
        var withdrawn = alice.request(renewal.operationId());
        assertThat(withdrawn.hint()).as("ended without effect: " + withdrawn).isEqualTo("CAN_REAPPLY");
        assertThat(approval.byOperationId(renewal.operationId()).orElseThrow().status())
                .isEqualTo(ApprovalSimulator.Status.WITHDRAWN);
        if (withdrawn.mergeRequestIid() > 0) {
            assertThat(cluster.sims().gitlab().mergeRequestState(withdrawn.mergeRequestProject(),
                    withdrawn.mergeRequestIid())).as("the renewal's merge request").isEqualTo("closed");
        }

        // the approver clicks yes afterwards: the ticket is withdrawn, nothing changes
        assertThat(approval.decide(ticket.ticket(), true, "approver")).isEqualTo(ApprovalSimulator.Decision.ALREADY_DECIDED);
        assertThat(alice.request(renewal.operationId()).hint()).isEqualTo("CAN_REAPPLY");
        assertThat(binding(alice, target).orElseThrow().path("status").asString()).isEqualTo("EXPIRED");
        assertThat(cluster.sims().fileOnMain(file).orElseThrow()).doesNotContain("alice until=");
    }

    /**
     * Issue 36, item 7: an operator closes a request at the very moment its merge request is being opened on GitLab:
     * the merge request opened after the close is closed too, so none is left that no request owns.
     */
    @Test
    void aCloseWhileTheMergeRequestIsBeingOpenedLeavesNoOpenMergeRequest() {
        var target = InstanceSettings.plainTargetKey(2);
        var bob = cluster.client("solo", "bob");
        var otto = cluster.client("solo", "otto");
        var id = UUID.randomUUID().toString();
        var closing = new AtomicReference<ApiResponse>();
        cluster.sims().gitlabCalls().beforeNext(call -> "POST".equals(call.method())
                && call.path().endsWith("/merge_requests"), call -> closing.set(otto.post("/ops/operations/" + id
                + "/close", null)));

        var submitted = bob.submit(id, target, "bob", "system test");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var closed = Poll.until("the operator's close during the creation", Duration.ofSeconds(60), closing::get,
                Objects::nonNull);
        assertThat(closed.status()).as(closed.toString()).isEqualTo(200);
        assertThat(closed.code()).isEqualTo("CLOSED");

        var mergeRequests = Poll.until("the merge request opened after the close to be closed", Duration.ofSeconds(20),
                () -> cluster.sims().mergeRequestsFrom("changeflow/" + id), list -> !list.isEmpty()
                        && list.stream().allMatch(mr -> "closed".equals(mr.path("state").asString())));
        assertThat(mergeRequests).as("one merge request, closed").hasSize(1);
        assertThat(bob.request(id).status()).isEqualTo("CLOSED");
    }
}
