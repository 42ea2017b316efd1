package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.domain.state.BatchStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** No N+1 on the batch path: a claim of N requests costs 3 + 7 * ceil(N / 1000) statements. */
class ClaimCostTest {

    @RegisterExtension
    static final io.changeflow.testsupport.TestDatabase db = io.changeflow.testsupport.TestDatabase.freshSchema();

    private static Persistence persistence;

    @BeforeAll
    static void wire() {
        persistence = Persistence.on(db, 4);
    }

    @AfterAll
    static void unwire() {
        persistence.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 10, 1000, 1001, 5000})
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
        assertThat(statements).hasSize(3 + 7 * chunks);
        assertThat(statements).allSatisfy(sql -> assertThat(sql.split("\\?", -1).length).isLessThan(5000));
        var claimed = ((Claim.Claimed) claim).batch();
        persistence.batches().changeStatus(claimed.id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "merged");
    }
}
