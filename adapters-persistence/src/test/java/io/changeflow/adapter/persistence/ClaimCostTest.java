package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.state.BatchStatus;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No N+1 on the batch path: a claim of N requests costs 4 + 7 * ceil(N / 1000) statements, a
 * settlement of N members 5 + 7 * ceil(N / 1000) (each opens with the READ COMMITTED of {@link GapLockFree});
 * no statement carries more than 1000 IN-list items or
 * inserted rows. Prints the time of each (docs/persistence.md records them).
 */
class ClaimCostTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @ParameterizedTest
    @ValueSource(ints = {1, 10, 1000, 1001, 5000, 10_000})
    void aClaimOfNRequestsUsesAFixedNumberOfStatementsPerThousand(int n) {
        var partition = Fixtures.unique("cost");
        Fixtures.bulkWaiting(persistence.dsl(), partition, n);
        var recorder = persistence.statements();

        recorder.start();
        var started = System.nanoTime();
        var claim = persistence.batches().claim(partition, n);
        var millis = (System.nanoTime() - started) / 1_000_000;
        var statements = recorder.stop();

        assertThat(claim).isInstanceOfSatisfying(Claim.Claimed.class, c -> assertThat(c.batch().members()).hasSize(n));
        var chunks = (n + 999) / 1000;
        System.out.printf("claim of %d requests: %d statements, %d ms%n", n, statements.size(), millis);
        assertThat(statements).hasSize(4 + 7 * chunks);
        assertThat(statements).allSatisfy(sql -> assertThat(sql.split("\\?", -1).length).isLessThan(5000));
        var claimed = ((Claim.Claimed) claim).batch();
        persistence.batches().changeStatus(claimed.id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "merged");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 1001, 5000})
    void aSettlementOfNMembersUsesAFixedNumberOfStatementsPerThousand(int n) {
        var partition = Fixtures.unique("settle");
        Fixtures.bulkWaiting(persistence.dsl(), partition, n);
        var batches = persistence.batches();
        var first = ((Claim.Claimed) batches.claim(partition, n)).batch();
        var recorder = persistence.statements();
        var chunks = (n + 999) / 1000;

        recorder.start();
        var started = System.nanoTime();
        batches.settle(first.id(), BatchStatus.RUNNING,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(first.members())), StepNote.system("requeued"));
        var requeueMillis = (System.nanoTime() - started) / 1_000_000;
        var requeue = recorder.stop();

        var second = ((Claim.Claimed) batches.claim(partition, n)).batch();
        recorder.start();
        started = System.nanoTime();
        batches.settle(second.id(), BatchStatus.RUNNING, new Resolution.Merged(), StepNote.system("merged"));
        var mergeMillis = (System.nanoTime() - started) / 1_000_000;
        var merge = recorder.stop();

        System.out.printf("settlement of %d members: requeue %d statements, %d ms; merged %d statements, %d ms%n", n,
                requeue.size(), requeueMillis, merge.size(), mergeMillis);
        assertThat(second.members()).containsExactlyElementsOf(first.members());
        assertThat(requeue).hasSize(5 + 7 * chunks);
        assertThat(merge).hasSize(5 + 7 * chunks);
    }
}
