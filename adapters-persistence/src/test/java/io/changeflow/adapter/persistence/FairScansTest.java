package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.Fixtures.rounds;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.SweepStuckRequests;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20.6 and 13.5 on the real database: reconciliation and the sweep page through every candidate with a
 * cursor kept in {@code scan_cursor}, and the sweep's writes are pinned to the version it read.
 */
class FairScansTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(8);

    /** 1,000 merged records that never advance, written 2 h ago, ahead of one named by a report: run 3 advances it. */
    @Test
    void aRecordBehindAThousandThatNeverAdvanceIsReconciledInRunThree() {
        var dsl = persistence.dsl();
        var project = Fixtures.unique("group/fair");
        var ops = dsl.insertInto(OPERATION, OPERATION.ID, OPERATION.REQUESTER, OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY,
                OPERATION.REASON, OPERATION.STEP_ORDER, OPERATION.STEP, OPERATION.VERSION, OPERATION.MR_PROJECT,
                OPERATION.MR_IID, OPERATION.MR_BRANCH, OPERATION.MR_WEB_URL);
        var bindings = dsl.insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID, BINDING.STATUS,
                BINDING.VERSION, BINDING.UPDATED_AT);
        for (var i = 0; i < 1000; i++) {
            var id = Fixtures.newId().value();
            var subject = "s" + i;
            ops = ops.values(DSL.val(id), DSL.val("bulk"), DSL.val(subject), DSL.val("fair"), DSL.val("bulk"),
                    DSL.val(StepOrder.APPROVE_FIRST.name()), DSL.val(StepStatus.HANDLE_MERGED.code()), DSL.val(5L),
                    DSL.val(project), DSL.val((long) i + 1), DSL.val("b" + i), DSL.val("u"));
            bindings = bindings.values(DSL.val(subject), DSL.val("fair"), DSL.val(id), DSL.val(BindingStatus.MERGED.name()),
                    DSL.val(5L), Sql.ago(Duration.ofHours(2)));
        }
        ops.execute();
        bindings.execute();
        var advanceable = Fixtures.merged(persistence.operations(), "newest", Fixtures.unique("fair"));
        persistence.operations().recordMergeRequest(advanceable.id(), new MergeRequestRef(project, 5000, "b", "u"));
        dsl.update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofHours(1)))
                .where(BINDING.OPERATION_ID.eq(advanceable.id().value())).execute();
        persistence.callbackInbox().recordDeploy(Fixtures.unique("named"), project, 5000, "success", List.of(advanceable.id()));
        var reconcile = new ReconcileMergedRequests(persistence.operations(), persistence.callbackInbox(),
                persistence.scanCursors(), new MarkDeployed(persistence.operations(), stub(BusinessMetrics.class)),
                persistence.auditLog(), ReconcileMergedRequests.Policy.defaults(), Clock.systemUTC());

        var runs = new ArrayList<ReconcileMergedRequests.Result>();
        while (status(advanceable.id()) == BindingStatus.MERGED) {
            assertThat(runs).as("within ceil(1001 / 500) = 3 runs").hasSizeLessThan(3);
            runs.add(reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()));
        }

        assertThat(runs).containsExactly(new ReconcileMergedRequests.Result(500, 0), new ReconcileMergedRequests.Result(500, 0),
                new ReconcileMergedRequests.Result(1, 1));
        assertThat(persistence.scanCursors().position(ReconcileMergedRequests.SCAN)).as("wrapped to the start").isEmpty();
        assertThat(reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).examined()).isEqualTo(500);
        assertThat(persistence.scanCursors().position(ReconcileMergedRequests.SCAN)).isPresent();
    }

    @Test
    void aScanCursorIsKeptAndAGarbledOneStartsFromTheBeginning() {
        var cursors = persistence.scanCursors();
        var scan = Fixtures.unique("scan");
        assertThat(cursors.position(scan)).isEmpty();
        cursors.remember(scan, new ScanCursors.Position("MERGED|2026-01-01T00:00:00Z|7"));
        assertThat(cursors.position(scan)).contains(new ScanCursors.Position("MERGED|2026-01-01T00:00:00Z|7"));
        cursors.forget(scan);
        assertThat(cursors.position(scan)).isEmpty();

        var target = Fixtures.unique("garbled");
        var merged = Fixtures.merged(persistence.operations(), "gus", target);
        // written a second ago by the database clock: a scan in the same millisecond rightly skips a row written "now"
        persistence.dsl().update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofSeconds(1)))
                .where(BINDING.OPERATION_ID.eq(merged.id().value())).execute();
        var page = persistence.operations().scan(Set.of(BindingStatus.MERGED), Duration.ZERO,
                new ScanCursors.Position("not|a|position"), 100_000);
        assertThat(page.operations()).extracting(Operation::id).contains(merged.id());
    }

    /** Issue 13.5: the sweep read the request stuck; it progressed before the sweep wrote: the failure is not written. */
    @Test
    void theSweepCannotOverwriteARequestThatProgressedAfterItWasRead() {
        var operations = persistence.operations();
        var stuck = stuckInApprovalSending();
        var progressed = new AtomicBoolean();
        var interleaved = (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(), new Class<?>[] {Operations.class},
                (proxy, method, args) -> {
                    var answer = invoke(method, operations, args);
                    if (method.getName().equals("scan") && ((Operations.Page) answer).operations().stream()
                            .anyMatch(op -> op.id().equals(stuck.id())) && progressed.compareAndSet(false, true)) {
                        // between the sweep's read and its write, the approval submission goes through
                        operations.apply(stuck.id(), stuck.version(), WorkflowEvent.APPROVAL_SUBMITTED, StepNote.system("sent"));
                    }
                    return answer;
                });

        var result = sweep(interleaved).sweep(new SweepStuckRequests.Command());

        assertThat(progressed).isTrue();
        assertThat(result.failed()).isZero();
        assertThat(operations.find(stuck.id()).orElseThrow().binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(events(stuck.id())).containsExactly(WorkflowEvent.SUBMITTED_APPROVE_FIRST.name(),
                WorkflowEvent.APPROVAL_SUBMITTED.name());
    }

    /** Issue 13.5, racing: the sweep and the step that progresses the request, from the same read; exactly one write lands. */
    @Test
    void theSweepAndAProgressingStepRacingFromTheSameReadWriteExactlyOnce() {
        var operations = persistence.operations();
        var sweep = sweep(operations);
        try (var pool = Fixtures.threads(2)) {
            for (var round = 0; round < rounds(); round++) {
                var stuck = stuckInApprovalSending();
                var outcomes = race(pool, List.<Callable<Object>>of(
                        () -> sweep.sweep(new SweepStuckRequests.Command()),
                        () -> operations.apply(stuck.id(), stuck.version(), WorkflowEvent.APPROVAL_SUBMITTED,
                                StepNote.system("sent"))));
                var written = events(stuck.id()).subList(1, events(stuck.id()).size());
                assertThat(written).as("round %d: %s", round, outcomes).hasSize(1)
                        .containsAnyOf(WorkflowEvent.APPROVAL_SUBMITTED.name(), WorkflowEvent.APPROVAL_SUBMIT_FAILED.name());
                var binding = operations.find(stuck.id()).orElseThrow().binding().orElseThrow();
                assertThat(binding).isEqualTo(written.getFirst().equals(WorkflowEvent.APPROVAL_SUBMITTED.name())
                        ? BindingStatus.APPROVAL_SENT : BindingStatus.APPROVAL_FAILED);
            }
        }
    }

    private static Operation stuckInApprovalSending() {
        var op = Fixtures.opened(persistence.operations(), Fixtures.request("ria", Fixtures.unique("sweep")));
        persistence.dsl().update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofHours(3)))
                .where(BINDING.OPERATION_ID.eq(op.id().value())).execute();
        return persistence.operations().find(op.id()).orElseThrow();
    }

    private static SweepStuckRequests sweep(Operations operations) {
        return new SweepStuckRequests(operations, stub(Targets.class), persistence.batches(), stub(WorkQueue.class),
                new StateChanges(operations, stub(BusinessMetrics.class)), persistence.scanCursors(),
                SweepStuckRequests.Policy.defaults());
    }

    private static BindingStatus status(OperationId id) {
        return persistence.operations().find(id).orElseThrow().binding().orElseThrow();
    }

    private static List<String> events(OperationId id) {
        return persistence.dsl().select(OPERATION_HISTORY.EVENT).from(OPERATION_HISTORY)
                .where(OPERATION_HISTORY.OPERATION_ID.eq(id.value())).orderBy(OPERATION_HISTORY.ID)
                .fetch(OPERATION_HISTORY.EVENT);
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A port that does nothing: false, zero, empty or nothing for every call. */
    @SuppressWarnings("unchecked")
    static <T> T stub(Class<T> port) {
        return (T) Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (proxy, method, args) -> {
            var type = method.getReturnType();
            if (type == boolean.class) {
                return false;
            }
            if (type == int.class || type == long.class) {
                return type == int.class ? (Object) 0 : (Object) 0L;
            }
            if (type == Optional.class) {
                return Optional.empty();
            }
            if (type == List.class) {
                return List.of();
            }
            return null;
        });
    }
}
