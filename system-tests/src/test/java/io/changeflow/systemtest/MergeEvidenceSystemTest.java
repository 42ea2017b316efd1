package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 13's measured scenario on the packaged application: an operator's re-trigger must never merge a head
 * whose pipeline failed. Create-first order, manual approvals, GitLab's "pipelines must succeed" off (the
 * simulator's default, as in many projects): the merge request's pipeline passes, someone edits the same grant
 * file on main, the request is approved, merging conflicts, the change is generated again and that head's pipeline
 * fails. The request stops at HANDLE_PIPELINE_FAILED; a re-trigger looks at the same head's pipeline again and
 * stops there again: nothing is merged, the merge request stays open, and the hint says a person must act.
 */
class MergeEvidenceSystemTest {

    private static final String TARGET = InstanceSettings.plainTargetKey(1);
    private static final String GRANT_FILE = "grants/" + TARGET + ".txt";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1).withInstances("solo")
            .withSimulatorProperty("sandbox.approval.mode", "manual")
            .withSimulatorProperty("sandbox.gitlab.refresh-lag", "500ms");

    @Test
    void aRetriggerAfterTheRegeneratedHeadsPipelineFailedDoesNotMergeIt() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var sims = cluster.sims();
        var submitted = alice.submit(TARGET, "svc-evidence", "system test");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var waiting = Poll.until("the merge request's pipeline passed and approval was asked", Duration.ofSeconds(60),
                () -> alice.request(id), v -> "APPROVAL_SENT".equals(v.status()) || v.isAtRest());
        assertThat(waiting.status()).as(waiting.toString()).isEqualTo("APPROVAL_SENT");
        var iid = waiting.mergeRequestIid();

        // someone edits the same grant file on main; the change generated again will fail its pipeline
        sims.gitlab().push(SimulatorHost.PROJECT, "main", Map.of(GRANT_FILE, "# edited by hand on main\n"), "Edit by hand");
        sims.gitlab().forcePipeline(SimulatorHost.PROJECT, iid, PipelineOutcome.FAILED);
        var ticket = Poll.until("the approval ticket", Duration.ofSeconds(30), () -> sims.approval().byOperationId(id),
                java.util.Optional::isPresent).orElseThrow();
        sims.approval().decide(ticket.ticket(), true, "approver");

        var failed = awaitAtRest(alice, id, null);
        assertThat(failed.status()).as(failed.toString()).isEqualTo("HANDLE_FAILED");
        assertThat(failed.step()).isEqualTo("HANDLE_PIPELINE_FAILED");
        assertThat(failed.hint()).isEqualTo("CONTACT_MAINTAINERS");

        var retrigger = otto.post("/ops/operations/" + id + "/retrigger", null);
        assertThat(retrigger.status()).as(retrigger.toString()).isEqualTo(200);
        var after = awaitAtRest(alice, id, failed.updatedAt());

        assertThat(after.status()).as(after.toString()).isEqualTo("HANDLE_FAILED");
        assertThat(after.step()).isEqualTo("HANDLE_PIPELINE_FAILED");
        assertThat(after.hint()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid)).as("never merged").isIn("opened", "closed");
        assertThat(sims.grantLinesOnMain(GRANT_FILE, id)).isZero();
        var history = otto.operation(id).toString();
        assertThat(history).contains("generating its change again").contains("current head failed");
        Figures.record("re-trigger after a failed regenerated head", after.step() + " / " + after.hint() + ", MR !" + iid + " "
                + sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid));
    }

    private static RequestView awaitAtRest(io.changeflow.systemtest.harness.ApiClient client, String id, String movedFrom) {
        return Poll.until("request " + id + " at rest", Duration.ofSeconds(90), Duration.ofMillis(500),
                () -> client.request(id), v -> v.isAtRest() && (movedFrom == null || !movedFrom.equals(v.updatedAt())));
    }
}
