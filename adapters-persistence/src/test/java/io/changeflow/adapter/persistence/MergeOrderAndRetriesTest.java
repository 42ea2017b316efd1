package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.CallbackInbox.Reports;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Issue 13.2 (merge order, the watermark in merge order) and 20.7 (batch members' transient retries) on the real database. */
class MergeOrderAndRetriesTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    private static Operation mergedAs(String project, long iid) {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request("m" + iid, Fixtures.unique("order")),
                WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED);
        operations.recordMergeRequest(op.id(), new MergeRequestRef(project, iid, "b" + iid, "u"));
        op = operations.find(op.id()).orElseThrow();
        return operations.apply(op.id(), op.version(), WorkflowEvent.MERGED, StepNote.system("merged"));
    }

    @Test
    void mergeOrderFollowsTheMergesNotTheNumbersAndTheWatermarkComparesIt() {
        var project = Fixtures.unique("group/order");
        var eleven = mergedAs(project, 11);
        var ten = mergedAs(project, 10);
        var twelve = mergedAs(project, 12);
        var operations = persistence.operations();
        var orders = operations.mergeOrders(List.of(ten.mergeRequest().orElseThrow(), eleven.mergeRequest().orElseThrow(),
                twelve.mergeRequest().orElseThrow()));
        var orderOf10 = orders.get(ten.mergeRequest().orElseThrow());
        var orderOf11 = orders.get(eleven.mergeRequest().orElseThrow());
        var orderOf12 = orders.get(twelve.mergeRequest().orElseThrow());
        assertThat(orderOf11).isLessThan(orderOf10);
        assertThat(orderOf10).isLessThan(orderOf12);

        var inbox = persistence.callbackInbox();
        inbox.recordDeploy(Fixtures.unique("d11"), project, 11, "success", List.of());
        inbox.recordDeploy(Fixtures.unique("d10"), project, 10, "failed", List.of());
        assertThat(inbox.latestReportedMergeOrder(project, orderOf11, Reports.ALL)).hasValue(orderOf11);
        assertThat(inbox.latestReportedMergeOrder(project, orderOf10, Reports.ALL))
                .as("nothing merged at or after !10 was reported in effect").isEmpty();
        assertThat(inbox.reportedWithoutOperationIds(List.of(ten.mergeRequest().orElseThrow(), eleven.mergeRequest().orElseThrow())))
                .containsExactly(eleven.mergeRequest().orElseThrow());

        inbox.recordDeploy(Fixtures.unique("d12"), project, 12, "success", List.of(twelve.id()));
        assertThat(inbox.latestReportedMergeOrder(project, orderOf10, Reports.ALL)).hasValue(orderOf12);
        assertThat(inbox.latestReportedMergeOrder(project, orderOf11, Reports.WITHOUT_OPERATION_IDS))
                .as("the report of !12 named its operations").hasValue(orderOf11);
        assertThat(inbox.reportedWithoutOperationIds(List.of(twelve.mergeRequest().orElseThrow()))).isEmpty();

        var again = operations.mergeOrders(List.of(eleven.mergeRequest().orElseThrow()));
        assertThat(again).containsEntry(eleven.mergeRequest().orElseThrow(), orderOf11);
    }

    @Test
    void aMergedBatchRecordsOneMergeOrderForItsMergeRequest() {
        var partition = Fixtures.unique("mob");
        var members = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = ((Claim.Claimed) persistence.batches().claim(partition, 10)).batch();
        var mr = new MergeRequestRef(Fixtures.unique("group/batch"), 5, "batch/" + batch.id(), "u");
        persistence.batches().recordMergeRequest(batch.id(), mr);

        persistence.batches().settle(batch.id(), BatchStatus.RUNNING, new Resolution.Merged(), StepNote.system("merged"));

        assertThat(persistence.operations().mergeOrders(List.of(mr))).containsOnlyKeys(mr);
        assertThat(persistence.operations().find(members.getFirst()).orElseThrow().mergeRequest()).contains(mr);
    }

    @Test
    void aTransientFailureStoresTheCountsAndTheMembersBackOffBeforeTheyAreClaimedAgain() {
        var batches = persistence.batches();
        var partition = Fixtures.unique("retry");
        var members = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = ((Claim.Claimed) batches.claim(partition, 10)).batch();
        assertThat(batches.transientFailures(batch.id())).containsOnlyKeys(members).containsValues(0);
        var retry = new TransientRetries.Retry(1, Duration.ofHours(1));
        var retries = Map.of(members.get(0), retry, members.get(1), retry, members.get(2), retry);

        batches.settle(batch.id(), BatchStatus.RUNNING, new Resolution.Failed(new Bisection.Plan.RequeueAll<>(members), retries),
                StepNote.system("transient"));

        assertThat(batches.hasWaiting(partition)).as("backing off").isFalse();
        assertThat(batches.claim(partition, 10)).isInstanceOf(Claim.NothingToClaim.class);
        var fresh = Fixtures.bulkWaiting(persistence.dsl(), partition, 1);
        var first = ((Claim.Claimed) batches.claim(partition, 10)).batch();
        assertThat(first.members()).as("the newcomer goes first").containsExactlyElementsOf(fresh);
        batches.settle(first.id(), BatchStatus.RUNNING, new Resolution.Merged(), StepNote.system("merged"));

        persistence.dsl().update(MERGE_BATCH_REQUEST).set(MERGE_BATCH_REQUEST.ELIGIBLE_AT, Sql.ago(Duration.ofSeconds(1)))
                .where(MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)).execute();
        var again = ((Claim.Claimed) batches.claim(partition, 10)).batch();
        assertThat(again.members()).containsExactlyElementsOf(members);
        assertThat(batches.transientFailures(again.id())).containsOnlyKeys(members).containsValues(1);
    }
}
