package io.changeflow.systemtest;

import static io.changeflow.systemtest.Grants.awaitStatus;
import static io.changeflow.systemtest.Grants.binding;
import static io.changeflow.systemtest.Grants.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
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
 * merge request. A removal whose batch pipeline fails on a target that is not batchable is re-triggered by an operator
 * and removes the line. One shared instance, expiry job every 2 s.
 */
class AccessTruthSystemTest {

    /** The expiry job's interval here (2 s) and a removal round (2 s) with its pipeline and deploy confirmation. */
    private static final Duration AGREED_WITHIN = Duration.ofSeconds(45);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(3)
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

    /**
     * Issue 36, item 4: the removal of an expired grant on a target that is not batchable travels in its file's removal
     * round; that batch's pipeline fails, so the removal (alone in it) is blamed and stops with a person. An
     * operator's re-trigger through the HTTP API re-admits it to the round, and the next batch removes the line: the
     * relationship is EXPIRED and main agrees.
     */
    @Test
    void aRemovalWhoseBatchPipelineFailsOnANonBatchableTargetIsRetriggeredAndMainLosesTheLine() {
        var target = InstanceSettings.plainTargetKey(3);
        var file = "grants/" + target + ".txt";
        var dave = cluster.client("solo", "dave");
        var otto = cluster.client("solo", "otto");
        var sims = cluster.sims();
        var until = Instant.now().plus(Duration.ofSeconds(20)).truncatedTo(ChronoUnit.SECONDS);
        var grant = awaitStatus(dave, submit(dave, target, until), "VALIDATED", Duration.ofSeconds(60));
        assertThat(sims.grantLinesOnMain(file, grant.operationId())).isEqualTo(1);

        // the first removal batch's pipeline fails: when its merge request is opened, fail its branch's pipelines
        var failedBranch = new AtomicReference<String>();
        sims.gitlabCalls().beforeNext(call -> "POST".equals(call.method()) && call.path().endsWith("/merge_requests"),
                call -> binding(dave, target).map(b -> dave.request(b.path("operationId").asString()))
                        .filter(v -> v.batchId() > 0).ifPresent(v -> {
                            var branch = "changeflow/batch-" + v.batchId();
                            sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, branch, PipelineOutcome.FAILED);
                            failedBranch.set(branch);
                        }));
        var removalId = Poll.until("dave's grant taken by its removal", Duration.between(Instant.now(), until)
                .plus(AGREED_WITHIN), () -> binding(dave, target).map(b -> b.path("operationId").asString())
                .filter(id -> !id.equals(grant.operationId())), Optional::isPresent).orElseThrow();
        var blamed = Poll.until("the removal blamed for its batch", AGREED_WITHIN, Duration.ofMillis(500),
                () -> dave.request(removalId), RequestView::hasConverged);
        assertThat(failedBranch.get()).as("the removal's batch pipeline was made to fail").isNotNull();
        assertThat(blamed.status()).as(blamed.toString()).isEqualTo("HANDLE_FAILED");
        assertThat(blamed.hint()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(sims.grantLinesOnMain(file, grant.operationId())).as("nothing removed yet").isEqualTo(1);

        var retrigger = otto.post("/ops/operations/" + removalId + "/retrigger", null);
        assertThat(retrigger.status()).as(retrigger.toString()).isEqualTo(200);
        var retriggered = Instant.now();
        var expired = Poll.until("the re-triggered removal ended", AGREED_WITHIN, Duration.ofMillis(500),
                () -> dave.request(removalId), v -> v.hasConverged() && !v.updatedAt().equals(blamed.updatedAt()));
        assertThat(expired.status()).as(expired.toString()).isEqualTo("EXPIRED");
        Figures.record("removal blamed for its failed batch on a non-batchable target: from the re-trigger to EXPIRED",
                Duration.between(retriggered, Instant.now()).toMillis() + " ms (rounds every 2 s)");
        assertThat(expired.batchId()).as("a later batch").isNotEqualTo(blamed.batchId());
        assertThat(sims.grantLinesOnMain(file, grant.operationId())).as("main agrees").isZero();
        assertThat(sims.fileOnMain(file).orElseThrow()).doesNotContain("dave until=");
        assertThat(binding(dave, target).orElseThrow().path("status").asString()).isEqualTo("EXPIRED");
    }
}
