package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.Fixtures.rounds;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_MEMBERSHIP_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** I1-I4 on the real database, with many threads on separate connections. */
class BatchInvariantsTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(80);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(72);

    @Test
    void twoClaimersNeverHoldTwoActiveBatchesOfOnePartition() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partitions = List.of(Fixtures.unique("p"), Fixtures.unique("p"));
        for (int round = 0; round < rounds(); round++) {
            for (var partition : partitions) {
                Fixtures.bulkWaiting(dsl, partition, 3);
            }
            // as a scheduled round and a manual trigger would, twice per partition
            var racers = new ArrayList<Callable<Claim>>();
            for (var partition : partitions) {
                racers.add(() -> batches.claim(partition, 10));
                racers.add(() -> batches.claim(partition, 10));
            }
            var outcomes = race(pool, racers);

            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            for (int p = 0; p < partitions.size(); p++) {
                var pair = List.of(outcomes.get(2 * p).value(), outcomes.get(2 * p + 1).value());
                assertThat(pair).filteredOn(c -> c instanceof Claim.Claimed).hasSize(1);
                assertThat(pair).filteredOn(c -> c instanceof Claim.SlotOccupied).hasSize(1);
            }
            assertThat(dsl.select(MERGE_BATCH.PARTITION_KEY).from(MERGE_BATCH)
                    .where(MERGE_BATCH.STATUS.in((byte) 1, (byte) 4))
                    .groupBy(MERGE_BATCH.PARTITION_KEY).having(DSL.count().gt(1)).fetch()).isEmpty();
            assertThat(batches.active()).extracting(b -> b.partition()).containsAll(partitions);
            for (var b : batches.active()) {
                if (partitions.contains(b.partition())) {
                    batches.changeStatus(b.id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "round done");
                }
            }
        }
    }

    @Test
    void noRequestEverJoinsTwoBatches() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("i2");
        var admitted = Collections.synchronizedList(new ArrayList<OperationId>());
        for (int round = 0; round < rounds(); round++) {
            admitted.addAll(Fixtures.bulkWaiting(dsl, partition, 20));
            // four claimers, each settling its batch at once (releasing the slot for the next)
            var racers = new ArrayList<Callable<Integer>>();
            for (int i = 0; i < 4; i++) {
                racers.add(() -> {
                    int claimed = 0;
                    for (int attempt = 0; attempt < 6; attempt++) {
                        if (batches.claim(partition, 7) instanceof Claim.Claimed c) {
                            claimed += c.batch().members().size();
                            batches.changeStatus(c.batch().id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "merged");
                        }
                    }
                    return claimed;
                });
            }
            assertThat(race(pool, racers)).noneMatch(Fixtures.Outcome::failed);
        }
        while (batches.claim(partition, 1000) instanceof Claim.Claimed c) {
            batches.changeStatus(c.batch().id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "merged");
        }
        var claims = dsl.select(MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID, DSL.count())
                .from(MERGE_BATCH_MEMBERSHIP_HISTORY)
                .join(MERGE_BATCH_REQUEST).on(MERGE_BATCH_REQUEST.OPERATION_ID.eq(MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID))
                .where(MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition))
                .and(MERGE_BATCH_MEMBERSHIP_HISTORY.ACTION.eq(BatchRows.CLAIMED))
                .groupBy(MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID)
                .fetchMap(MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID, DSL.count());
        assertThat(claims).hasSize(admitted.size());
        assertThat(claims.values()).allMatch(n -> n == 1);
        assertThat(dsl.fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull()))).isZero();
        assertThat(dsl.fetchCount(OPERATION.join(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID)),
                OPERATION.ID.in(admitted.stream().map(OperationId::value).toList())
                        .and(OPERATION.STEP.eq(StepStatus.BATCH_CLAIMED.code()))
                        .and(BINDING.STATUS.eq(BindingStatus.BATCHED.name()))
                        .and(OPERATION.BATCH_ID.isNotNull()))).isEqualTo(admitted.size());
    }

    @Test
    void aClaimWhoseRequestWasTakenMeanwhileRollsBackWhole() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("guard");
        var waiting = Fixtures.bulkWaiting(dsl, partition, 5);
        var stolen = waiting.get(2).value();
        // right after the claim's plain read, another transaction claims one of the rows it read
        persistence.statements().hookAfter(Thread.currentThread(), "from `merge_batch_request`", sql -> {
            try {
                pool.submit(() -> dsl.update(MERGE_BATCH_REQUEST).set(MERGE_BATCH_REQUEST.BATCH_ID, -1L)
                        .where(MERGE_BATCH_REQUEST.OPERATION_ID.eq(stolen)).execute()).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertThatThrownBy(() -> batches.claim(partition, 10)).isInstanceOf(PreemptedException.class)
                .hasMessageContaining("claim of batch");

        assertThat(dsl.fetchCount(MERGE_BATCH, MERGE_BATCH.PARTITION_KEY.eq(partition))).as("no batch survives").isZero();
        assertThat(dsl.fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull()))).as("the others still wait").isEqualTo(4);
        assertThat(dsl.fetchCount(MERGE_BATCH_MEMBERSHIP_HISTORY.join(MERGE_BATCH_REQUEST)
                .on(MERGE_BATCH_REQUEST.OPERATION_ID.eq(MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID)),
                MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition))).isZero();
        assertThat(batches.claim(partition, 10)).isInstanceOf(Claim.Claimed.class)
                .satisfies(c -> assertThat(((Claim.Claimed) c).batch().members()).hasSize(4));
    }

    @Test
    void admissionsCompleteWhileAClaimTransactionHoldsItsSlot() throws Exception {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("i3");
        var latencies = new ArrayList<Long>();
        for (int round = 0; round < Math.max(5, rounds() / 5); round++) {
            Fixtures.bulkWaiting(dsl, partition, 50);
            var holding = new CountDownLatch(1);
            var release = new CountDownLatch(1);
            var claimer = pool.submit(() -> {
                // hold the claim transaction open after its guarded UPDATE and history insert
                persistence.statements().hookAfter(Thread.currentThread(), "insert into `merge_batch_membership_history`",
                        sql -> {
                            holding.countDown();
                            await(release);
                        });
                return batches.claim(partition, 1000);
            });
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

            var admissions = new ArrayList<Callable<Long>>();
            for (int i = 0; i < 16; i++) {
                admissions.add(() -> {
                    var started = System.nanoTime();
                    assertThat(batches.admit(Fixtures.newId(), partition)).isTrue();
                    return (System.nanoTime() - started) / 1_000;
                });
            }
            var outcomes = race(pool, admissions);
            assertThat(claimer.isDone()).as("the claim transaction is still open").isFalse();
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            outcomes.forEach(o -> latencies.add(o.value()));
            release.countDown();
            var claim = claimer.get(30, TimeUnit.SECONDS);
            assertThat(claim).isInstanceOf(Claim.Claimed.class);
            batches.changeStatus(((Claim.Claimed) claim).batch().id(), BatchStatus.RUNNING, BatchStatus.SUCCEEDED, "ok");
        }
        Collections.sort(latencies);
        var p99 = latencies.get((int) (latencies.size() * 0.99) - 1);
        var max = latencies.getLast();
        System.out.printf("I3 admission latency during an open claim: n=%d median=%d us p99=%d us max=%d us%n",
                latencies.size(), latencies.get(latencies.size() / 2), p99, max);
        assertThat(Duration.ofNanos(max * 1_000)).isLessThan(Duration.ofSeconds(2));
    }

    /**
     * I3 for request admission (issue 15): a claim of 1,000 holds its transaction open after it moved the members'
     * bindings; new requests, whose bindings' random operation ids fall between the members', are admitted
     * meanwhile. Under REPEATABLE READ the binding update's next-key locks made each of them wait for the claim.
     */
    @Test
    void requestAdmissionsCompleteWhileAClaimTransactionHoldsItsMembers() throws Exception {
        var batches = persistence.batches();
        var operations = persistence.operations();
        var partition = Fixtures.unique("i3r");
        Fixtures.bulkWaiting(persistence.dsl(), partition, 1000);
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var claimer = pool.submit(() -> {
            persistence.statements().hookAfter(Thread.currentThread(), "insert into `binding_history`", sql -> {
                holding.countDown();
                await(release);
            });
            return batches.claim(partition, 1000);
        });
        try {
            assertThat(holding.await(60, TimeUnit.SECONDS)).isTrue();
            var admissions = new ArrayList<Future<io.changeflow.domain.operation.Operation>>();
            for (int i = 0; i < 16; i++) {
                var subject = Fixtures.unique("r");
                admissions.add(pool.submit(() -> Fixtures.opened(operations, Fixtures.request(subject, "i3r-target"))));
            }
            for (var admission : admissions) {
                // far below innodb_lock_wait_timeout (50 s): an admission behind the claim's locks times out here
                assertThat(admission.get(20, TimeUnit.SECONDS).id()).isNotNull();
            }
            assertThat(claimer.isDone()).as("the claim transaction is still open").isFalse();
        } finally {
            release.countDown();
        }
        assertThat(claimer.get(60, TimeUnit.SECONDS)).isInstanceOf(Claim.Claimed.class)
                .satisfies(c -> assertThat(((Claim.Claimed) c).batch().members()).hasSize(1000));
    }

    @Test
    void controlALockingReadOfTheWaitingRangeDoesBlockAdmissions() throws Exception {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("ctl");
        Fixtures.bulkWaiting(dsl, partition, 5);
        var locked = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var locker = pool.submit(() -> dsl.transaction(tx -> {
            tx.dsl().select(MERGE_BATCH_REQUEST.ID).from(MERGE_BATCH_REQUEST)
                    .where(BatchRows.waiting(partition))
                    .orderBy(MERGE_BATCH_REQUEST.CREATED_AT, MERGE_BATCH_REQUEST.ID)
                    .limit(1000).forUpdate().fetch();
            locked.countDown();
            await(release);
        }));
        assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
        var started = System.nanoTime();
        Future<Boolean> admission = pool.submit(() -> batches.admit(Fixtures.newId(), partition));
        assertThatThrownBy(() -> admission.get(1, TimeUnit.SECONDS)).as("the admission waits for the lock")
                .isInstanceOf(TimeoutException.class);
        release.countDown();
        locker.get(30, TimeUnit.SECONDS);
        assertThat(admission.get(30, TimeUnit.SECONDS)).isTrue();
        System.out.printf("control: admission blocked by SELECT ... FOR UPDATE for %d ms%n",
                (System.nanoTime() - started) / 1_000_000);
    }

    @Test
    void sixtyFourConcurrentAdmissionsOfOneRequestAdmitItOnce() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("i4");
        for (int round = 0; round < rounds(); round++) {
            var id = Fixtures.newId();
            var racers = new ArrayList<Callable<Boolean>>();
            for (int i = 0; i < 64; i++) {
                racers.add(() -> batches.admit(id, partition));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value()).hasSize(1);
            assertThat(persistence.dsl().fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.OPERATION_ID.eq(id.value())))
                    .isEqualTo(1);
        }
    }

    @Test
    void anEmptyWaitingSetRollsTheSlotBack() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("empty");
        assertThat(batches.hasWaiting(partition)).isFalse();
        assertThat(batches.claim(partition, 10)).isInstanceOf(Claim.NothingToClaim.class);
        assertThat(persistence.dsl().fetchCount(MERGE_BATCH, MERGE_BATCH.PARTITION_KEY.eq(partition))).isZero();
    }

    @Test
    void failingABatchReleasesItsMembersForReadmission() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("fail");
        var members = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = ((Claim.Claimed) batches.claim(partition, 10)).batch();
        assertThat(batch.members()).containsExactlyElementsOf(members);
        assertThat(batches.admit(members.getFirst(), partition)).as("still a member").isFalse();

        batches.changeStatus(batch.id(), BatchStatus.RUNNING, BatchStatus.FAILED, "pipeline failed");
        assertThatThrownBy(() -> batches.changeStatus(batch.id(), BatchStatus.RUNNING, BatchStatus.FAILED, "again"))
                .isInstanceOf(PreemptedException.class);

        assertThat(batches.find(batch.id()).orElseThrow().members()).as("history keeps them").hasSize(3);
        assertThat(batches.active()).noneMatch(b -> b.id() == batch.id());
        assertThat(batches.admit(members.getFirst(), partition)).isTrue();
    }

    @Test
    void requestsNoLongerWaitingAreDroppedInsteadOfBlockingRounds() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("drop");
        var ids = Fixtures.bulkWaiting(dsl, partition, 2);
        dsl.update(BINDING).set(BINDING.STATUS, BindingStatus.CLOSED.name())
                .where(BINDING.OPERATION_ID.eq(ids.getFirst().value())).execute();

        var claim = (Claim.Claimed) batches.claim(partition, 10);
        assertThat(claim.batch().members()).containsExactly(ids.get(1));
        assertThat(dsl.fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.OPERATION_ID.eq(ids.getFirst().value()))).isZero();
    }

    @Test
    void theTimeoutSweepSeesOnlyBatchesOlderThanTheAgeByTheDatabaseClock() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("sweep");
        Fixtures.bulkWaiting(dsl, partition, 1);
        var batch = ((Claim.Claimed) batches.claim(partition, 10)).batch();
        assertThat(batches.runningOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
        assertThat(batches.activeOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
        dsl.update(MERGE_BATCH).set(MERGE_BATCH.CREATED_AT, Sql.ago(Duration.ofMinutes(11)))
                .where(MERGE_BATCH.ID.eq(batch.id())).execute();
        assertThat(batches.runningOlderThan(Duration.ofMinutes(10))).anyMatch(b -> b.id() == batch.id());
        assertThat(batches.activeOlderThan(Duration.ofMinutes(10))).anyMatch(b -> b.id() == batch.id());
        batches.changeStatus(batch.id(), BatchStatus.RUNNING, BatchStatus.BLOCKED, "pipeline pending");
        assertThat(batches.claim(partition, 10)).as("blocked holds the slot").isInstanceOf(Claim.SlotOccupied.class);
        assertThat(batches.runningOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
        // issue 36: past the batch timeout a batch is settled whatever its status: a blocked one by its age too
        assertThat(batches.activeOlderThan(Duration.ofMinutes(10))).anyMatch(b -> b.id() == batch.id()
                && b.status() == BatchStatus.BLOCKED && b.members().size() == 1);
        // issue 36: a blocked batch is found by how long ago it was blocked (its last write), not by its age
        assertThat(batches.blockedOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
        dsl.update(MERGE_BATCH).set(MERGE_BATCH.UPDATED_AT, Sql.ago(Duration.ofMinutes(11)))
                .where(MERGE_BATCH.ID.eq(batch.id())).execute();
        assertThat(batches.blockedOlderThan(Duration.ofMinutes(10))).anyMatch(b -> b.id() == batch.id() && b.members()
                .size() == 1);
        batches.changeStatus(batch.id(), BatchStatus.BLOCKED, BatchStatus.FAILED, "settled");
        assertThat(batches.blockedOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
        assertThat(batches.activeOlderThan(Duration.ofMinutes(10))).noneMatch(b -> b.id() == batch.id());
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
