package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 4: an operator's revocation marked urgent gets its own round at once, without waiting for the next
 * scheduled run.
 */
class RevokeUrgentlyTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final RevokeUrgently urgently = new RevokeUrgently(app.removeGrant, app.batchRound, app.targets);

    private BindingStatus statusOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().status();
    }

    private RevokeUrgently.Result revoke(String subject) {
        return urgently.revoke(new RevokeUrgently.Command(subject, FakeTargets.SINGLE.value(), "otto", Map.of()));
    }

    @Test
    void anUrgentRevocationIsClaimedAtOnceAndRemovedWithoutAScheduledRun() {
        app.grantInEffect("alice", "alice", null);

        var result = revoke("alice");

        assertThat(result.removal()).isInstanceOf(RemoveGrant.Result.Accepted.class);
        var removal = ((RemoveGrant.Result.Accepted) result.removal()).removal().operationId();
        assertThat(result.round()).hasValueSatisfying(round -> assertThat(round)
                .isInstanceOfSatisfying(RunBatchRound.Result.Claimed.class,
                        claimed -> assertThat(claimed.members()).containsExactly(removal)));
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.BATCHED);
        app.queue.runUntilIdle();
        app.deployed(removal);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKED);
        assertThat(app.audit.all()).extracting(e -> e.action()).contains("REVOKE_GRANT", "BATCH_ROUND");
    }

    @Test
    void aRevocationThatAsksTheApproverFirstRunsNoRoundYet() {
        app.grantInEffect("bob", "bob", null);
        app.targets.withRemovals(FakeTargets.SINGLE, RemovalPolicy.APPROVAL);

        var result = revoke("bob");

        assertThat(result.removal()).isInstanceOf(RemoveGrant.Result.Accepted.class);
        assertThat(result.round()).isEmpty();
        assertThat(statusOf("bob")).isEqualTo(BindingStatus.APPROVAL_SENDING);
    }

    @Test
    void aRefusedRevocationRunsNoRound() {
        var result = revoke("nobody");

        assertThat(result.removal()).isInstanceOf(RemoveGrant.Result.NotFound.class);
        assertThat(result.round()).isEmpty();
    }
}
