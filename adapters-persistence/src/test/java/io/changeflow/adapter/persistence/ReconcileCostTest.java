package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK_OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 15: reconciliation writes in chunks. A run over N merged requests whose deploy reports were lost (a
 * report naming their operation IDs survived) costs {@code 3 + 9 * ceil(N / 1000)} statements on the real
 * database: per chunk of 1000 the two reads of the reports and, in one transaction opened READ COMMITTED
 * ({@link GapLockFree}), six writes (lock operations, lock bindings, one guarded update of each layer, one
 * multi-row insert into each history). At least 1000
 * records: at most 0.05 statements per record (the target). Statement counts, never times, are asserted;
 * the time is printed.
 */
class ReconcileCostTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);
    private static final AtomicInteger validated = new AtomicInteger();

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 1001, 5000})
    void aRunOverNLostReportsUsesAFixedNumberOfStatementsPerThousand(int n) {
        var ids = lostReports(persistence.dsl(), n);
        var reconcile = reconcile();
        persistence.scanCursors().forget(ReconcileMergedRequests.SCAN);
        var before = validated.get();
        var recorder = persistence.statements();

        recorder.start();
        var started = System.nanoTime();
        var result = reconcile.reconcile(new ReconcileMergedRequests.Command(Optional.empty(), n));
        var millis = (System.nanoTime() - started) / 1_000_000;
        var statements = recorder.stop();

        var chunks = (n + 999) / 1000;
        System.out.printf("reconciliation of %d lost reports: %d statements (%.4f per record), %d ms%n", n, statements.size(),
                statements.size() / (double) n, millis);
        assertThat(result).isEqualTo(new ReconcileMergedRequests.Result(n, n));
        assertThat(validated.get() - before).isEqualTo(n);
        assertThat(statements).hasSize(3 + 9 * chunks);
        if (n >= 1000) {
            assertThat(statements.size() / (double) n).isLessThanOrEqualTo(0.05);
        }
        assertThat(statements).allSatisfy(sql -> assertThat(sql.split("\\?", -1).length).isLessThan(5000));
        var dsl = persistence.dsl();
        assertThat(dsl.fetchCount(BINDING, BINDING.OPERATION_ID.in(ids.stream().map(OperationId::value).toList())
                .and(BINDING.STATUS.eq(BindingStatus.VALIDATED.name())).and(BINDING.VERSION.eq(5L)))).isEqualTo(n);
        assertThat(dsl.fetchCount(OPERATION, OPERATION.ID.in(ids.stream().map(OperationId::value).toList())
                .and(OPERATION.VERSION.eq(6L)).and(OPERATION.STEP.eq(StepStatus.CALLED_BACK.code())))).isEqualTo(n);
        assertThat(dsl.fetchCount(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID.in(ids.stream().map(OperationId::value).toList())
                .and(OPERATION_HISTORY.EVENT.eq("DEPLOYED")).and(OPERATION_HISTORY.VERSION.eq(6L)))).isEqualTo(n);
        assertThat(dsl.fetchCount(BINDING_HISTORY, BINDING_HISTORY.OPERATION_ID.in(ids.stream().map(OperationId::value).toList())
                .and(BINDING_HISTORY.EVENT.eq("DEPLOYED")).and(BINDING_HISTORY.FROM_STATUS.eq("MERGED"))
                .and(BINDING_HISTORY.TO_STATUS.eq("VALIDATED")).and(BINDING_HISTORY.TO_VERSION.eq(5L)))).isEqualTo(n);
    }

    /**
     * The chunk keeps the version pin of the record-by-record write: a record whose own callback arrives between the
     * scan and the chunk's write is validated once (by the callback), the chunk skips it and writes the others.
     */
    @Test
    void aRecordThatMovedOnAfterTheScanIsSkippedAndWrittenOnce() throws Exception {
        var ids = lostReports(persistence.dsl(), 10);
        var late = ids.get(4);
        persistence.scanCursors().forget(ReconcileMergedRequests.SCAN);
        var recorder = persistence.statements();
        var other = Executors.newSingleThreadExecutor();
        try {
            // right after the reports were read, the late callback validates one of them on another connection
            recorder.hookAfter(Thread.currentThread(), "deploy_callback_operation", sql -> {
                try {
                    other.submit(() -> persistence.operations().applyIfAllowed(late, WorkflowEvent.DEPLOYED,
                            StepNote.system("its own callback"))).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            var result = reconcile().reconcile(new ReconcileMergedRequests.Command(Optional.empty(), 10));
            assertThat(result).isEqualTo(new ReconcileMergedRequests.Result(10, 9));
        } finally {
            other.shutdownNow();
        }
        var dsl = persistence.dsl();
        assertThat(dsl.fetchCount(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID.eq(late.value())
                .and(OPERATION_HISTORY.EVENT.eq("DEPLOYED")))).isEqualTo(1);
        assertThat(dsl.fetchValue(OPERATION_HISTORY.DETAIL, OPERATION_HISTORY.OPERATION_ID.eq(late.value())
                .and(OPERATION_HISTORY.EVENT.eq("DEPLOYED")))).isEqualTo("its own callback");
        assertThat(dsl.fetchCount(BINDING, BINDING.OPERATION_ID.in(ids.stream().map(OperationId::value).toList())
                .and(BINDING.STATUS.eq(BindingStatus.VALIDATED.name())).and(BINDING.VERSION.eq(5L)))).isEqualTo(10);
    }

    private static ReconcileMergedRequests reconcile() {
        var metrics = new BusinessMetrics() {
            @Override
            public void submitted(String target) {
            }

            @Override
            public void validated(String target) {
                validated.incrementAndGet();
            }

            @Override
            public void failed(StepStatus step) {
            }

            @Override
            public void batchCompleted(int size, Duration duration, boolean merged) {
            }
        };
        return new ReconcileMergedRequests(persistence.operations(), persistence.callbackInbox(), persistence.scanCursors(),
                new MarkDeployed(persistence.operations(), metrics), persistence.auditLog(),
                ReconcileMergedRequests.Policy.defaults(), Clock.systemUTC());
    }

    /**
     * {@code count} merged requests, each with its own merge request, last written an hour ago (inside the window),
     * whose own callbacks were lost, and one in-effect report naming every one of them by operation ID (issue 13's
     * exact matching), written in bulk.
     */
    private static List<OperationId> lostReports(DSLContext dsl, int count) {
        var state = Transitions.require(WorkflowEvent.SUBMITTED_APPROVE_FIRST).to();
        for (var event : List.of(WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE,
                WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED)) {
            state = Transitions.require(state, event).to();
        }
        assertThat(state.binding()).contains(BindingStatus.MERGED);
        var project = Fixtures.unique("group/reconcile");
        var written = DSL.field("(CURRENT_TIMESTAMP(3) - INTERVAL 60 MINUTE)", SQLDataType.LOCALDATETIME(3));
        var callbackId = dsl.insertInto(DEPLOY_CALLBACK)
                .set(DEPLOY_CALLBACK.DELIVERY_ID, Fixtures.unique("delivery"))
                .set(DEPLOY_CALLBACK.PROJECT, project)
                .set(DEPLOY_CALLBACK.MR_IID, 1L)
                .set(DEPLOY_CALLBACK.STATUS, CallbackInbox.IN_EFFECT)
                .returningResult(DEPLOY_CALLBACK.ID).fetchOne().value1();
        var ids = new ArrayList<OperationId>(count);
        for (var from = 0; from < count; from += 1000) {
            var n = Math.min(1000, count - from);
            var ops = dsl.insertInto(OPERATION, OPERATION.ID, OPERATION.REQUESTER, OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY,
                    OPERATION.REASON, OPERATION.STEP_ORDER, OPERATION.STEP, OPERATION.VERSION, OPERATION.MR_PROJECT,
                    OPERATION.MR_IID, OPERATION.MR_BRANCH, OPERATION.MR_WEB_URL, OPERATION.UPDATED_AT);
            var bindings = dsl.insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID,
                    BINDING.STATUS, BINDING.VERSION, BINDING.UPDATED_AT);
            var named = dsl.insertInto(DEPLOY_CALLBACK_OPERATION, DEPLOY_CALLBACK_OPERATION.OPERATION_ID,
                    DEPLOY_CALLBACK_OPERATION.DEPLOY_CALLBACK_ID);
            for (var i = 0; i < n; i++) {
                var id = Fixtures.newId();
                ids.add(id);
                long iid = from + i + 2;
                ops = ops.values(DSL.val(id.value()), DSL.val("bulk"), DSL.val("r" + id.value().replace("-", "").substring(0, 20)),
                        DSL.val("bulk-reconcile"), DSL.val("bulk"), DSL.val(StepOrder.APPROVE_FIRST.name()),
                        DSL.val(state.step().code()), DSL.val(5L), DSL.val(project), DSL.val(iid), DSL.val("changeflow/" + id.value()),
                        DSL.val("http://gitlab.example/" + project + "/-/merge_requests/" + iid), written);
                bindings = bindings.values(DSL.val("r" + id.value().replace("-", "").substring(0, 20)), DSL.val("bulk-reconcile"),
                        DSL.val(id.value()), DSL.val(BindingStatus.MERGED.name()), DSL.val(4L), written.coerce(LocalDateTime.class));
                named = named.values(id.value(), callbackId);
            }
            ops.execute();
            bindings.execute();
            named.execute();
        }
        return ids;
    }
}
