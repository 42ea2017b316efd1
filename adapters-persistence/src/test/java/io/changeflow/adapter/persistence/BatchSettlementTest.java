package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.Fixtures.rounds;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_MEMBERSHIP_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Batches.Filter;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.FailureKind;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalBatchTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Settling and blocking batches on the real database: one transaction, the guarded batch write
 * first (a second settler rolls back whole), members through the transition table, waiting-set rows
 * requeued in bisection groups that later rounds claim separately, or released.
 */
class BatchSettlementTest {

    private static final StepNote NOTE = StepNote.system("settled by a test");

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(24);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(16);

    private static Batch claim(String partition, int max) {
        var claim = persistence.batches().claim(partition, max);
        assertThat(claim).isInstanceOf(Claim.Claimed.class);
        return ((Claim.Claimed) claim).batch();
    }

    private static Operation op(OperationId id) {
        return persistence.operations().find(id).orElseThrow();
    }

    private static int history(OperationId id, WorkflowEvent event) {
        return persistence.dsl().fetchCount(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID.eq(id.value())
                .and(OPERATION_HISTORY.EVENT.eq(event.name())));
    }

    private static int waitingRows(String partition) {
        return persistence.dsl().fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull()));
    }

    @Test
    void mergedMovesEveryMemberToMergedReleasesTheSlotAndTheDeployReportFindsThemAll() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("merged");
        var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = claim(partition, 10);
        var mr = new MergeRequestRef("platform/access-config", 4711, "changeflow/batch-" + batch.id(), "https://gitlab/mr/4711");
        batches.recordMergeRequest(batch.id(), mr);

        var settled = batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);

        assertThat(settled.status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(settled.members()).containsExactlyElementsOf(ids);
        assertThat(settled.detail()).isEqualTo(NOTE.detail());
        assertThat(batches.active()).noneMatch(b -> b.id() == batch.id());
        assertThat(ids).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.MERGED);
            assertThat(op(id).step()).isEqualTo(StepStatus.HANDLE_MERGED);
            assertThat(op(id).mergeRequest()).contains(mr);
            assertThat(history(id, WorkflowEvent.BATCH_MERGED)).isEqualTo(1);
        });
        assertThat(persistence.dsl().fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.BATCH_ID.eq(batch.id()))).isZero();
        assertThat(persistence.dsl().fetchCount(MERGE_BATCH_MEMBERSHIP_HISTORY, MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID
                .eq(batch.id()).and(MERGE_BATCH_MEMBERSHIP_HISTORY.ACTION.eq(BatchRows.RELEASED)))).isEqualTo(3);
        // the deploy callback of the batch merge request covers every member (Operations.findByMergeRequest)
        var covered = persistence.operations().findByMergeRequest(mr.project(), mr.iid());
        assertThat(covered).extracting(Operation::id).containsExactlyInAnyOrderElementsOf(ids);
        for (var id : ids) {
            assertThat(persistence.operations().applyIfAllowed(id, WorkflowEvent.DEPLOYED, NOTE)).isPresent();
        }
        assertThat(ids).allSatisfy(id -> assertThat(op(id).binding()).contains(BindingStatus.VALIDATED));
    }

    /**
     * Issue 36: a merged batch whose merged commit does not bear one member's claim: that member gives up with its own
     * reason (HANDLE_FAILED at BATCH_FAILED, never MERGED, so no deploy report makes it VALIDATED), the others are
     * merged, every one leaves the waiting set, in the one transaction.
     */
    @Test
    void mergedWithAMemberTheMergedCommitDoesNotBearStopsThatMemberWithItsReasonAndMergesTheOthers() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("notborne");
        var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = claim(partition, 10);
        var mr = new MergeRequestRef("platform/access-config", 4712, "changeflow/batch-" + batch.id(), "https://gitlab/mr/4712");
        batches.recordMergeRequest(batch.id(), mr);
        var culprit = ids.get(1);
        var why = "Merge request !4712 is merged, but its file at its merged commit does not hold the line";

        var settled = batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(java.util.Map.of(culprit, why)),
                NOTE);

        assertThat(settled.status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(op(culprit).binding()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(op(culprit).step()).isEqualTo(StepStatus.BATCH_FAILED);
        assertThat(op(culprit).detail()).isEqualTo(why);
        assertThat(history(culprit, WorkflowEvent.BATCH_GAVE_UP)).isEqualTo(1);
        assertThat(history(culprit, WorkflowEvent.BATCH_MERGED)).isZero();
        assertThat(ids).filteredOn(id -> !id.equals(culprit)).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.MERGED);
            assertThat(op(id).detail()).isEqualTo(NOTE.detail());
        });
        assertThat(persistence.dsl().fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.BATCH_ID.eq(batch.id()))).isZero();
        assertThat(waitingRows(partition)).isZero();
        assertThat(persistence.operations().applyIfAllowed(culprit, WorkflowEvent.DEPLOYED, NOTE)).isEmpty();
        assertThat(op(culprit).binding()).contains(BindingStatus.HANDLE_FAILED);
    }

    /** A member named as not borne must be one of the batch's: otherwise nothing is written. */
    @Test
    void aNotBorneMemberThatIsNoMemberIsRefusedAndNothingIsWritten() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("notmember");
        var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 2);
        var batch = claim(partition, 10);
        var stranger = OperationId.of("00000000-0000-4000-8000-0000000fa11e");

        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING,
                new Resolution.Merged(java.util.Map.of(stranger, "no")), NOTE)).isInstanceOf(IllegalArgumentException.class);

        assertThat(batches.find(batch.id()).orElseThrow().status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(ids).allSatisfy(id -> assertThat(op(id).binding()).contains(BindingStatus.BATCHED));
    }

    /** GET /ops/batches?status=&partition=: filtered in SQL before the limit, so an older match is never hidden. */
    @Test
    void theListFiltersByStatusAndPartitionBeforeItsLimit() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("listed");
        Fixtures.bulkWaiting(persistence.dsl(), partition, 1);
        var older = claim(partition, 10);
        batches.settle(older.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);
        Fixtures.bulkWaiting(persistence.dsl(), partition, 1);
        var newer = claim(partition, 10);

        var ofPartition = new Filter(Optional.empty(), Optional.of(partition));
        assertThat(batches.recent(ofPartition, 10)).extracting(Batch::id).containsExactly(newer.id(), older.id());
        assertThat(batches.recent(new Filter(Optional.of(BatchStatus.SUCCEEDED), Optional.of(partition)), 1))
                .extracting(Batch::id).containsExactly(older.id());
        assertThat(batches.recent(new Filter(Optional.of(BatchStatus.RUNNING), Optional.of(partition)), 10))
                .singleElement().satisfies(b -> assertThat(b.members()).isEqualTo(newer.members()));
        assertThat(batches.recent(new Filter(Optional.of(BatchStatus.BLOCKED), Optional.of(partition)), 10)).isEmpty();
        assertThat(batches.recent(new Filter(Optional.empty(), Optional.of(Fixtures.unique("none"))), 10)).isEmpty();
    }

    @Test
    void aSecondSettlerRollsBackWholeAndWritesNothing() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("twice");
        var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 2);
        var batch = claim(partition, 10);
        batches.settle(batch.id(), BatchStatus.RUNNING,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(batch.members())), NOTE);

        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE))
                .isInstanceOf(PreemptedException.class);

        assertThat(batches.find(batch.id()).orElseThrow().status()).isEqualTo(BatchStatus.FAILED);
        assertThat(ids).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(history(id, WorkflowEvent.BATCH_MERGED)).isZero();
            assertThat(history(id, WorkflowEvent.BATCH_REQUEUED)).isEqualTo(1);
        });
        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.FAILED, new Resolution.Merged(), NOTE))
                .isInstanceOf(IllegalBatchTransitionException.class);
    }

    @Test
    void ofConcurrentSettlersExactlyOneWinsAndTheMembersMoveOnce() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("race");
        for (int round = 0; round < Math.max(5, rounds() / 5); round++) {
            var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 4);
            var batch = claim(partition, 10);
            var racers = new ArrayList<Callable<Batch>>();
            for (int i = 0; i < 8; i++) {
                var resolution = i % 2 == 0
                        ? new Resolution.Merged()
                        : new Resolution.Failed(Bisection.plan(batch.members(), 0, 4, FailureKind.TRANSIENT));
                racers.add(() -> batches.settle(batch.id(), BatchStatus.RUNNING, resolution, NOTE));
            }

            var outcomes = race(pool, racers);

            assertThat(outcomes).filteredOn(o -> !o.failed()).hasSize(1);
            assertThat(outcomes).filteredOn(Fixtures.Outcome::failed)
                    .allSatisfy(o -> assertThat(o.failure()).isInstanceOf(PreemptedException.class));
            var winner = outcomes.stream().filter(o -> !o.failed()).findFirst().orElseThrow().value();
            assertThat(ids).allSatisfy(id -> assertThat(history(id, WorkflowEvent.BATCH_MERGED)
                    + history(id, WorkflowEvent.BATCH_REQUEUED)).isEqualTo(1));
            if (winner.status() == BatchStatus.FAILED) {
                // the requeued members wait again: let the next round merge them so the partition is empty
                batches.settle(claim(partition, 10).id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);
            }
            assertThat(waitingRows(partition)).isZero();
        }
    }

    @Test
    void aSplitRequeuesTwoGroupsThatLaterRoundsClaimSeparatelyBeforeYoungerRequests() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("split");
        var ids = Fixtures.bulkWaiting(dsl, partition, 6);
        var batch = claim(partition, 10);
        var plan = (Bisection.Plan.Split<OperationId>) Bisection.plan(batch.members(), batch.depth(), 4,
                FailureKind.DETERMINISTIC);

        var failed = batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Failed(plan), NOTE);

        assertThat(failed.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(ids).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(op(id).step()).isEqualTo(StepStatus.BATCH_WAITING);
            assertThat(op(id).batchId()).isEmpty();
        });
        var groups = dsl.select(MERGE_BATCH_REQUEST.BISECT_GROUP, DSL.count(), DSL.max(MERGE_BATCH_REQUEST.DEPTH))
                .from(MERGE_BATCH_REQUEST).where(MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition))
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                .groupBy(MERGE_BATCH_REQUEST.BISECT_GROUP).fetch();
        assertThat(groups).hasSize(2).allSatisfy(g -> {
            assertThat(g.value2()).isEqualTo(3);
            assertThat(g.value3()).isEqualTo(1);
        });
        var younger = Fixtures.bulkWaiting(dsl, partition, 2);

        var first = claim(partition, 10);
        assertThat(first.members()).containsExactlyElementsOf(plan.firstHalf());
        assertThat(first.depth()).isEqualTo(1);
        assertThat(batches.claim(partition, 10)).as("one active batch per partition").isInstanceOf(Claim.SlotOccupied.class);
        batches.settle(first.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);

        var second = claim(partition, 10);
        assertThat(second.members()).containsExactlyElementsOf(plan.secondHalf());
        assertThat(second.depth()).isEqualTo(1);
        // a transient failure of a group requeues it as it was: same group, same depth
        batches.settle(second.id(), BatchStatus.RUNNING,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(second.members())), NOTE);
        var again = claim(partition, 10);
        assertThat(again.members()).containsExactlyElementsOf(plan.secondHalf());
        assertThat(again.depth()).isEqualTo(1);
        batches.settle(again.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);

        var fresh = claim(partition, 10);
        assertThat(fresh.members()).containsExactlyElementsOf(younger);
        assertThat(fresh.depth()).isZero();
        batches.settle(fresh.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);
        assertThat(batches.claim(partition, 10)).isInstanceOf(Claim.NothingToClaim.class);
    }

    @Test
    void blameAndGiveUpFailTheirMembersAndReleaseThemForReadmission() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("blame");
        var culprit = Fixtures.bulkWaiting(persistence.dsl(), partition, 1).getFirst();
        var alone = claim(partition, 10);

        batches.settle(alone.id(), BatchStatus.RUNNING, new Resolution.Failed(new Bisection.Plan.Blame<>(culprit)), NOTE);

        assertThat(op(culprit).binding()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(op(culprit).step()).isEqualTo(StepStatus.BATCH_PIPELINE_FAILED);
        assertThat(op(culprit).batchId()).contains(alone.id());
        assertThat(persistence.dsl().fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.OPERATION_ID.eq(culprit.value())))
                .isZero();
        // an operator readmits it: the state write, then admission (a fresh waiting-set row)
        assertThat(persistence.operations().applyIfAllowed(culprit, WorkflowEvent.BATCH_READMITTED, NOTE)).isPresent();
        assertThat(batches.admit(culprit, partition)).isTrue();
        assertThat(op(culprit).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(op(culprit).batchId()).isEmpty();

        var ids = new ArrayList<>(Fixtures.bulkWaiting(persistence.dsl(), partition, 2));
        var group = claim(partition, 10);
        assertThat(group.members()).as("admitted again just now: the youngest").containsExactly(ids.get(0), ids.get(1), culprit);
        batches.settle(group.id(), BatchStatus.RUNNING, new Resolution.Failed(new Bisection.Plan.GiveUp<>(group.members())), NOTE);
        assertThat(group.members()).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.HANDLE_FAILED);
            assertThat(op(id).step()).isEqualTo(StepStatus.BATCH_FAILED);
        });
        assertThat(batches.hasWaiting(partition)).isFalse();
    }

    @Test
    void aPlanThatDoesNotNameExactlyTheMembersWritesNothing() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("plan");
        var ids = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = claim(partition, 10);

        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(ids.subList(0, 2))), NOTE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(List.of(ids.get(0), ids.get(1), Fixtures.newId()))), NOTE))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(batches.find(batch.id()).orElseThrow().status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(ids).allSatisfy(id -> assertThat(op(id).binding()).contains(BindingStatus.BATCHED));
    }

    @Test
    void aMemberChangedAfterTheSettlementReadItRollsTheSettlementBackWhole() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("stale");
        var ids = Fixtures.bulkWaiting(dsl, partition, 3);
        var batch = claim(partition, 10);
        var changed = ids.get(1).value();
        persistence.statements().hookAfter(Thread.currentThread(), "from `operation`", sql -> {
            try {
                pool.submit(() -> dsl.update(OPERATION).set(OPERATION.VERSION, OPERATION.VERSION.plus(1))
                        .where(OPERATION.ID.eq(changed)).execute()).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE))
                .isInstanceOf(PreemptedException.class);

        assertThat(batches.find(batch.id()).orElseThrow().status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(ids).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.BATCHED);
            assertThat(history(id, WorkflowEvent.BATCH_MERGED)).isZero();
        });
        assertThat(dsl.fetchCount(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.BATCH_ID.eq(batch.id()))).isEqualTo(3);
        assertThat(batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE).status())
                .isEqualTo(BatchStatus.SUCCEEDED);
    }

    @Test
    void blockingKeepsTheSlotAndMarksTheMembersPendingUntilTheBlockedBatchIsSettled() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("block");
        var ids = Fixtures.bulkWaiting(dsl, partition, 2);
        var batch = claim(partition, 10);
        var bindingVersion = dsl.select(BINDING.VERSION).from(BINDING).where(BINDING.OPERATION_ID.eq(ids.getFirst().value()))
                .fetchOne().value1();

        var blocked = batches.block(batch.id(), StepNote.system("pipeline did not finish in time"));

        assertThat(blocked.status()).isEqualTo(BatchStatus.BLOCKED);
        assertThat(ids).allSatisfy(id -> {
            assertThat(op(id).binding()).contains(BindingStatus.BATCHED);
            assertThat(op(id).step()).isEqualTo(StepStatus.BATCH_PENDING);
        });
        assertThat(dsl.select(BINDING.VERSION).from(BINDING).where(BINDING.OPERATION_ID.eq(ids.getFirst().value()))
                .fetchOne().value1()).as("a step-only move").isEqualTo(bindingVersion);
        Fixtures.bulkWaiting(dsl, partition, 1);
        assertThat(batches.claim(partition, 10)).isInstanceOf(Claim.SlotOccupied.class);
        assertThatThrownBy(() -> batches.block(batch.id(), NOTE)).isInstanceOf(PreemptedException.class);
        assertThatThrownBy(() -> batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE))
                .isInstanceOf(PreemptedException.class);

        batches.settle(batch.id(), BatchStatus.BLOCKED, new Resolution.Merged(), NOTE);

        assertThat(ids).allSatisfy(id -> assertThat(op(id).binding()).contains(BindingStatus.MERGED));
        assertThat(claim(partition, 10).members()).hasSize(1);
    }

    @Test
    void theSettlementFindsTheClaimedRowsByTheBatchIndexAndUpdatesByKeys() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var partition = Fixtures.unique("plan");
        Fixtures.bulkWaiting(dsl, partition, 1500);
        var batch = claim(partition, 300);
        dsl.execute("ANALYZE TABLE merge_batch_request");
        var recorder = persistence.statements();

        recorder.start();
        batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);
        var statements = recorder.stop();

        var read = statements.stream().filter(sql -> sql.startsWith("select") && sql.contains("from `merge_batch_request`"))
                .findFirst().orElseThrow();
        assertThat(explain(read)).anySatisfy(row -> assertThat(row).containsEntry("key", "idx_merge_batch_request_batch"));
        var delete = statements.stream().filter(sql -> sql.toLowerCase(java.util.Locale.ROOT).startsWith("delete")
                && sql.contains("merge_batch_request")).findFirst().orElseThrow();
        // a scanning DELETE would lock the waiting range (and block admissions) until commit
        assertThat(explain(delete)).allSatisfy(row -> {
            assertThat(row).containsEntry("key", "PRIMARY");
            assertThat(row.get("type")).isEqualTo("range");
        });
        assertThat(statements).noneMatch(sql -> sql.contains(" for update"));
    }

    private static List<java.util.Map<String, String>> explain(String sql) {
        var rows = new ArrayList<java.util.Map<String, String>>();
        for (var record : persistence.dsl().fetch("EXPLAIN " + sql)) {
            var row = new java.util.HashMap<String, String>();
            for (var field : record.fields()) {
                var value = record.get(field);
                row.put(field.getName().toLowerCase(java.util.Locale.ROOT), value == null ? "" : value.toString());
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void partitionsAreIndependentABlockedBatchStopsOnlyItsOwn() {
        var batches = persistence.batches();
        var dsl = persistence.dsl();
        var stuck = Fixtures.unique("a");
        var free = Fixtures.unique("b");
        Fixtures.bulkWaiting(dsl, stuck, 1);
        Fixtures.bulkWaiting(dsl, free, 1);
        var blocked = claim(stuck, 10);
        batches.block(blocked.id(), NOTE);
        Fixtures.bulkWaiting(dsl, stuck, 1);

        var other = claim(free, 10);

        assertThat(batches.claim(stuck, 10)).isInstanceOf(Claim.SlotOccupied.class);
        assertThat(batches.active()).extracting(Batch::id).contains(blocked.id(), other.id());
        batches.settle(other.id(), BatchStatus.RUNNING, new Resolution.Merged(), NOTE);
        batches.settle(blocked.id(), BatchStatus.BLOCKED,
                new Resolution.Failed(new Bisection.Plan.RequeueAll<>(blocked.members())), NOTE);
        assertThat(claim(stuck, 10).members()).hasSize(2);
    }
}
