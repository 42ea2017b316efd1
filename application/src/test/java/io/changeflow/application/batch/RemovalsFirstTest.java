package io.changeflow.application.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 4, removals first: the removals of a grant file (expiry, give-up, revocation) wait in their own
 * partition ({@link io.changeflow.domain.request.Target#removalPartition}), which every scheduled run rounds, so a
 * removal never queues behind new grants, however many wait.
 */
class RemovalsFirstTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aRemovalAdmittedBehind500WaitingGrantsIsMergedInTheNextRound() {
        var until = app.clock.instant().plus(Duration.ofHours(1));
        var carol = app.approvedGrant("carol", FakeTargets.BATCHABLE, "carol", until);
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(carol);
        assertThat(app.op(carol).binding()).contains(BindingStatus.VALIDATED);
        var grants = new ArrayList<OperationId>();
        for (var i = 0; i < 500; i++) {
            grants.add(app.approvedGrant("w" + i, FakeTargets.BATCHABLE, "w" + i, null));
        }
        assertThat(grants).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).opened()).isEqualTo(1);
        var removal = app.operations.binding(SubjectId.of("carol"), FakeTargets.BATCHABLE).orElseThrow().operationId();
        var target = app.targets.require(FakeTargets.BATCHABLE);
        assertThat(target.partitionOf(ChangeKind.EXPIRY)).isNotEqualTo(target.partitionOf(ChangeKind.GRANT));

        var results = app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());

        assertThat(results.get(target.removalPartition())).isInstanceOfSatisfying(RunBatchRound.Result.Claimed.class,
                claimed -> assertThat(claimed.members()).containsExactly(removal));
        app.queue.runUntilIdle();
        assertThat(app.op(removal).binding()).isIn(java.util.Optional.of(BindingStatus.MERGED),
                java.util.Optional.of(BindingStatus.EXPIRED));
    }
}
