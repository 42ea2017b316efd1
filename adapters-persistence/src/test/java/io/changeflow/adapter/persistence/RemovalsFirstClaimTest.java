package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.batch.BatchPolicy;
import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.WorkflowEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 32 item 4 on the real database: a removal admitted after 500 waiting grants of the same grant file is claimed
 * by the next round, since removals wait in their file's removal partition and the claim reads one partition only.
 * Also the guarded detail write of issue 32 item 5.
 */
class RemovalsFirstClaimTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Test
    void aRemovalAdmittedBehind500WaitingGrantsIsClaimedByTheNextRound() {
        var key = Fixtures.unique("busy");
        var target = new Target(TargetKey.of(key), key, "", "platform/access-config", "grants/" + key + ".txt", true, key);
        var grants = Fixtures.bulkWaiting(persistence.dsl(), target.partitionOf(ChangeKind.GRANT), 500);
        // admitted after every grant: the claim reads the partition, not the kind, so the fixture's state serves
        var removal = Fixtures.bulkWaiting(persistence.dsl(), target.partitionOf(ChangeKind.EXPIRY), 1).getFirst();
        var batches = persistence.batches();
        var maxRequests = BatchPolicy.defaults().maxRequests();

        var removalRound = batches.claim(target.removalPartition(), maxRequests);
        var grantRound = batches.claim(target.partition(), maxRequests);

        assertThat(removalRound).isInstanceOfSatisfying(Claim.Claimed.class,
                claimed -> assertThat(claimed.batch().members()).containsExactly(removal));
        assertThat(grantRound).isInstanceOfSatisfying(Claim.Claimed.class,
                claimed -> assertThat(claimed.batch().members()).doesNotContain(removal)
                        .hasSize(Math.min(maxRequests, grants.size())));
    }

    @Test
    void theDetailAloneIsWrittenOnlyOnTheVersionRead() {
        var operations = persistence.operations();
        var opened = Fixtures.opened(operations, Fixtures.request("sod", Fixtures.unique("db")));
        var sent = operations.apply(opened.id(), opened.version(), WorkflowEvent.APPROVAL_SUBMITTED, StepNote.system("sent"));

        assertThat(operations.recordDetail(sent.id(), sent.version(), "The approval by sod does not count")).isTrue();
        assertThat(operations.recordDetail(sent.id(), opened.version(), "stale")).isFalse();

        var read = operations.find(sent.id()).orElseThrow();
        assertThat(read.detail()).isEqualTo("The approval by sod does not count");
        assertThat(read.version()).isEqualTo(sent.version());
        assertThat(operations.history(sent.id())).hasSize(2);
    }
}
