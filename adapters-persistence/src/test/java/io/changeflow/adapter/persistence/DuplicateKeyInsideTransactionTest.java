package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.AUDIT_LOG;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.domain.state.BatchStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.dao.DuplicateKeyException;

/**
 * Stack pitfall 4 on the real database, with Spring Boot's jOOQ wiring (Spring transactions,
 * exception translation): a duplicate key caught inside the transaction leaves it usable and the
 * commit succeeds.
 */
class DuplicateKeyInsideTransactionTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Test
    void aCaughtDuplicateSlotInsertKeepsTheTransactionUsableAndCommittable() {
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("dup");
        dsl.insertInto(MERGE_BATCH).set(MERGE_BATCH.PARTITION_KEY, partition).execute();

        dsl.transaction(tx -> {
            var ctx = tx.dsl();
            ctx.insertInto(AUDIT_LOG).set(AUDIT_LOG.ENTRY_KEY, partition + "-before").set(AUDIT_LOG.ACTOR, "t")
                    .set(AUDIT_LOG.ACTION, "a").set(AUDIT_LOG.SUBJECT, partition).set(AUDIT_LOG.PARAMETERS, "")
                    .set(AUDIT_LOG.OCCURRED_AT, Sql.now()).execute();
            assertThatThrownBy(() -> ctx.insertInto(MERGE_BATCH).set(MERGE_BATCH.PARTITION_KEY, partition).execute())
                    .isInstanceOf(DuplicateKeyException.class)
                    .satisfies(e -> assertThat(Sql.isDuplicateKey(e, "uk_merge_batch_active_slot")).isTrue());
            ctx.insertInto(AUDIT_LOG).set(AUDIT_LOG.ENTRY_KEY, partition + "-after").set(AUDIT_LOG.ACTOR, "t")
                    .set(AUDIT_LOG.ACTION, "a").set(AUDIT_LOG.SUBJECT, partition).set(AUDIT_LOG.PARAMETERS, "")
                    .set(AUDIT_LOG.OCCURRED_AT, Sql.now()).execute();
        });

        assertThat(dsl.fetchCount(AUDIT_LOG, AUDIT_LOG.SUBJECT.eq(partition))).as("both writes committed").isEqualTo(2);
        assertThat(dsl.fetchCount(MERGE_BATCH, MERGE_BATCH.PARTITION_KEY.eq(partition))).isEqualTo(1);
    }

    @Test
    void aClaimOnAnOccupiedSlotAnswersSlotOccupiedWithoutARollbackError() {
        var partition = Fixtures.unique("occupied");
        Fixtures.bulkWaiting(persistence.dsl(), partition, 2);
        var first = (Claim.Claimed) persistence.batches().claim(partition, 1);
        assertThat(persistence.batches().claim(partition, 1)).isInstanceOf(Claim.SlotOccupied.class);
        assertThat(persistence.batches().hasWaiting(partition)).isTrue();
        persistence.batches().changeStatus(first.batch().id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "merged");
        assertThat(persistence.batches().claim(partition, 1)).isInstanceOf(Claim.Claimed.class);
    }

    @Test
    void theGeneratedSlotColumnIsNeverWritable() {
        assertThat(MERGE_BATCH.fields()).extracting(f -> f.getName()).doesNotContain("active_slot");
    }
}
