package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.Activity.StateGroup;
import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operations overview's figures ({@link JooqActivity}) on the real database: the values for a seeded set
 * of requests, batches and deploy reports, and a fixed number of statements however many rows there are
 * (no N+1: six statements for 10 requests and for 2,000).
 */
class ActivityQueriesTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    private static Activity activity() {
        return persistence.activity();
    }

    @Test
    void theSnapshotCountsEachStateTheOldestWaitEveryHoursOutcomesReportsAndSlotsInSixStatements() {
        var ops = persistence.operations();
        var expiry = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS);
        Fixtures.walked(ops, Fixtures.request("ann", "t-approval"), WorkflowEvent.APPROVAL_SUBMITTED);
        Fixtures.walked(ops, new ChangeRequest(Fixtures.newId(), "alice", TargetKey.of("t-approval"), SubjectId.of("ben"),
                "needed", Optional.of(expiry)), WorkflowEvent.APPROVAL_SUBMITTED);
        Fixtures.rejected(ops, "cat", "t-approval");
        Fixtures.merged(ops, "dan", "t-merge");
        var done = Fixtures.merged(ops, "eve", "t-merge");
        ops.apply(done.id(), done.version(), WorkflowEvent.DEPLOYED, Operations.StepNote.system("in effect"));
        Fixtures.walked(ops, Fixtures.request("fay", "t-create"), WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_CREATE, WorkflowEvent.CREATE_STARTED, WorkflowEvent.CREATE_ERROR);
        var waitingPartition = Fixtures.unique("wait");
        Fixtures.bulkWaiting(persistence.dsl(), waitingPartition, 3);
        var claimedPartition = Fixtures.unique("busy");
        Fixtures.bulkWaiting(persistence.dsl(), claimedPartition, 2);
        var batch = ((Claim.Claimed) persistence.batches().claim(claimedPartition, 10)).batch();
        persistence.callbackInbox().recordDeploy("d-1", "group/infra", 1, "success", List.of());
        persistence.callbackInbox().recordDeploy("d-2", "group/infra", 2, "failed", List.of());

        var recorder = persistence.statements();
        recorder.start();
        var hourAgo = Instant.now().minus(Duration.ofHours(1));
        var snapshot = activity().read(hourAgo.minus(Duration.ofHours(23)), hourAgo);
        var statements = recorder.stop();

        assertThat(statements).hasSize(6);
        assertThat(snapshot.byStatus()).containsEntry(BindingStatus.APPROVAL_SENT, 2L).containsEntry(BindingStatus.REJECTED, 1L)
                .containsEntry(BindingStatus.MERGED, 1L).containsEntry(BindingStatus.VALIDATED, 1L)
                .containsEntry(BindingStatus.CREATE_FAILED, 1L).containsEntry(BindingStatus.BATCH_WAITING, 3L)
                .containsEntry(BindingStatus.BATCHED, 2L)
                .doesNotContainKey(BindingStatus.MR_CREATING);
        var approvals = group(snapshot, BindingStatus.APPROVAL_SENT);
        assertThat(approvals.step()).isEqualTo(StepStatus.APPROVAL_SUBMITTED);
        assertThat(approvals.count()).isEqualTo(2);
        assertThat(approvals.oldestWrite()).isEqualTo(ops.binding(SubjectId.of("ann"), TargetKey.of("t-approval")).orElseThrow().updatedAt());
        assertThat(approvals.earliestExpiry()).contains(expiry);
        assertThat(snapshot.waiting()).extracting(StateGroup::status)
                .doesNotContain(BindingStatus.REJECTED, BindingStatus.VALIDATED);
        assertThat(snapshot.hours()).hasSize(1);
        assertThat(snapshot.hours().getFirst().completed()).isEqualTo(1);
        assertThat(snapshot.hours().getFirst().failed()).isEqualTo(1);
        assertThat(snapshot.hours().getFirst().start().getEpochSecond() % 3600).isZero();
        assertThat(snapshot.deployReports().received()).isEqualTo(2);
        assertThat(snapshot.deployReports().unsuccessful()).isEqualTo(1);
        assertThat(snapshot.deployReports().latest()).isPresent();
        assertThat(snapshot.slots()).anySatisfy(slot -> {
            assertThat(slot.partition()).isEqualTo(waitingPartition);
            assertThat(slot.waiting()).isEqualTo(3);
            assertThat(slot.activeBatch()).isEmpty();
        });
        assertThat(snapshot.slots()).anySatisfy(slot -> {
            assertThat(slot.partition()).isEqualTo(claimedPartition);
            assertThat(slot.waiting()).isZero();
            assertThat(slot.activeBatch()).hasValueSatisfying(b -> {
                assertThat(b.id()).isEqualTo(batch.id());
                assertThat(b.status()).isEqualTo(BatchStatus.RUNNING);
            });
        });

        Fixtures.bulkWaiting(persistence.dsl(), Fixtures.unique("many"), 2_000);
        recorder.start();
        var larger = activity().read(hourAgo.minus(Duration.ofHours(23)), hourAgo);
        assertThat(recorder.stop()).as("the same statements for 2,000 more rows").hasSize(6);
        assertThat(larger.byStatus()).containsEntry(BindingStatus.BATCH_WAITING, 2_003L);
    }

    @Test
    void hoursBeforeTheWindowAndReportsBeforeTheirStartAreNotCounted() {
        var later = Instant.now().plus(Duration.ofHours(1));
        var snapshot = activity().read(later, later);
        assertThat(snapshot.hours()).isEmpty();
        assertThat(snapshot.deployReports().received()).isZero();
        assertThat(snapshot.deployReports().unsuccessful()).isZero();
    }

    /**
     * Issue 33: the overview's version is three statements however many rows there are, the same while nothing
     * changes, and another after a state write, a new request, a claimed batch, a deploy report, and a report leaving
     * the window.
     */
    @Test
    void theVersionIsThreeStatementsAndChangesWithEveryKindOfWriteTheSnapshotShows() {
        var ops = persistence.operations();
        var since = Instant.now().minus(Duration.ofHours(1));
        var recorder = persistence.statements();
        recorder.start();
        var version = activity().version(since);
        var statements = recorder.stop();
        assertThat(statements).hasSize(3);
        assertThat(statements).noneMatch(sql -> sql.contains("binding_history") || sql.contains("operation_history"));
        assertThat(activity().version(since)).as("nothing changed").isEqualTo(version);

        var op = Fixtures.opened(ops, Fixtures.request(Fixtures.unique("s"), Fixtures.unique("t")));
        var afterRequest = activity().version(since);
        assertThat(afterRequest).as("a new request").isNotEqualTo(version);
        ops.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_SUBMITTED, Operations.StepNote.system("sent"));
        var afterWrite = activity().version(since);
        assertThat(afterWrite).as("a state write").isNotEqualTo(afterRequest);
        var partition = Fixtures.unique("v");
        Fixtures.bulkWaiting(persistence.dsl(), partition, 2);
        var afterWaiting = activity().version(since);
        assertThat(afterWaiting).as("requests waiting for a batch").isNotEqualTo(afterWrite);
        persistence.batches().claim(partition, 10);
        var afterClaim = activity().version(since);
        assertThat(afterClaim).as("a claimed batch").isNotEqualTo(afterWaiting);
        persistence.callbackInbox().recordDeploy(Fixtures.unique("d"), "group/infra", 1, "success", List.of());
        var afterReport = activity().version(since);
        assertThat(afterReport).as("a deploy report").isNotEqualTo(afterClaim);
        assertThat(activity().version(Instant.now().plus(Duration.ofHours(1)))).as("reports leaving the window")
                .isNotEqualTo(afterReport);

        Fixtures.bulkWaiting(persistence.dsl(), Fixtures.unique("many"), 2_000);
        recorder.start();
        activity().version(since);
        assertThat(recorder.stop()).as("the same statements for 2,000 more rows").hasSize(3);
    }

    private static StateGroup group(Activity.Snapshot snapshot, BindingStatus status) {
        return snapshot.waiting().stream().filter(g -> g.status() == status).findFirst().orElseThrow();
    }
}
