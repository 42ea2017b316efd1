package io.changeflow.application.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Design 3.7: deploy callbacks, lost ones converged by reconciliation, the metric counted exactly once. */
class DeployAndReconcileTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    {
        app.config.set(Settings.APPROVE_FIRST, "true");
    }

    private OperationId merged(String subject) {
        var id = app.submitAccepted(FakeTargets.SINGLE, subject);
        app.queue.runUntilIdle();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        return id;
    }

    private HandleDeployCallback.Result report(String delivery, long iid, List<String> operationIds) {
        return app.deployCallback.handle(new HandleDeployCallback.Command(delivery, FakeTargets.PROJECT, iid, "success", operationIds));
    }

    @Test
    void aDeployReportMovesItsMergeRequestsRequestToInEffect() {
        var id = merged("alice");

        var result = report("d-1", app.mr(id).iid(), List.of());

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(1);
    }

    @Test
    void aDuplicateDeployReportAnswersDuplicate() {
        var id = merged("bob");
        report("d-2", app.mr(id).iid(), List.of());

        assertThat(report("d-2", app.mr(id).iid(), List.of()).answer()).isEqualTo(CallbackAnswer.DUPLICATE);
        assertThat(app.metrics.total("validated")).isEqualTo(1);
    }

    @Test
    void aFailedDeployAdvancesNothingAndDoesNotRaiseTheWatermark() {
        var id = merged("carol");

        var result = app.deployCallback.handle(new HandleDeployCallback.Command("d-3", FakeTargets.PROJECT, app.mr(id).iid(),
                "failed", List.of()));

        assertThat(result.advanced()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.inbox.largestDeployedIid(FakeTargets.PROJECT)).isEmpty();
    }

    @Test
    void aLostDeployCallbackIsReconciledOnceItIsOlderThanTheMinimumAge() {
        var lost = merged("dave");
        var later = merged("erin");
        assertThat(app.mr(later).iid()).isGreaterThan(app.mr(lost).iid());
        report("d-4", app.mr(later).iid(), List.of());

        var tooEarly = app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled());
        assertThat(tooEarly.advanced()).isZero();
        assertThat(app.op(lost).binding()).contains(BindingStatus.MERGED);

        app.clock.advance(Duration.ofMinutes(11));
        var run = app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled());

        assertThat(run).isEqualTo(new ReconcileMergedRequests.Result(1, 1));
        assertThat(app.op(lost).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(lost).detail()).contains("reconciliation");
        assertThat(app.metrics.total("validated")).isEqualTo(2);
    }

    @Test
    void aMergeRequestAboveTheWatermarkWaitsForTheNextRun() {
        var waiting = merged("frank");
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()))
                .isEqualTo(new ReconcileMergedRequests.Result(1, 0));
        assertThat(app.op(waiting).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void recordsOlderThanTheWindowAreNotLookedAt() {
        merged("grace");
        app.clock.advance(Duration.ofHours(25));

        assertThat(app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).examined()).isZero();
    }

    @Test
    void aReportNamingOperationsAdvancesExactlyThose() {
        var named = merged("heidi");
        var other = merged("ivan");

        var result = report("d-5", app.mr(other).iid(), List.of(named.value()));

        assertThat(result.advanced()).isEqualTo(1);
        assertThat(app.op(named).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(other).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void reconciliationTakesOnlyInEffectReportsAsTheWatermarkOrAsNamingOperations() {
        var lost = merged("judy");
        var later = merged("karl");
        app.clock.advance(Duration.ofMinutes(11));
        // reports stored for the record that do not mean "in effect": above both, and naming both
        app.inbox.recordDeploy("failed-report", FakeTargets.PROJECT, app.mr(later).iid() + 10, "failed",
                List.of(lost, later));
        app.inbox.recordDeploy("canceled-report", FakeTargets.PROJECT, app.mr(later).iid() + 20, "canceled", List.of());

        assertThat(app.inbox.largestDeployedIid(FakeTargets.PROJECT)).isEmpty();
        assertThat(app.inbox.deployedOperations(List.of(lost, later))).isEmpty();
        assertThat(app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).advanced()).isZero();
        assertThat(app.op(lost).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(later).binding()).contains(BindingStatus.MERGED);
        assertThat(app.inbox.deploys()).hasSize(2);

        app.inbox.recordDeploy("success-report", FakeTargets.PROJECT, app.mr(lost).iid(), "success", List.of());

        assertThat(app.inbox.largestDeployedIid(FakeTargets.PROJECT)).hasValue(app.mr(lost).iid());
        assertThat(app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).advanced()).isEqualTo(1);
        assertThat(app.op(lost).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(later).binding()).as("above the in-effect watermark").contains(BindingStatus.MERGED);
    }

    @Test
    void anOperatorRunIsAudited() {
        app.reconcile.reconcile(new ReconcileMergedRequests.Command(Optional.of("otto"), 100));

        assertThat(app.audit.all()).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("otto");
            assertThat(e.action()).isEqualTo("RECONCILE");
        });
    }

    @Test
    void aDeployCallbackRacingReconciliationCountsTheMetricExactlyOnce() throws Exception {
        var ids = new ArrayList<OperationId>();
        for (var i = 0; i < 20; i++) {
            ids.add(merged("user" + i));
        }
        app.clock.advance(Duration.ofMinutes(11));
        var highest = ids.stream().mapToLong(id -> app.mr(id).iid()).max().orElseThrow();
        app.inbox.recordDeploy("earlier-report", FakeTargets.PROJECT, highest, "success", List.of());

        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(6);
        try {
            var tasks = new ArrayList<Callable<Integer>>();
            for (var id : ids) {
                tasks.add(() -> {
                    start.await();
                    return report("race-" + id.value(), app.mr(id).iid(), List.of(id.value())).advanced();
                });
            }
            for (var i = 0; i < 3; i++) {
                tasks.add(() -> {
                    start.await();
                    return app.reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).advanced();
                });
            }
            var futures = new ArrayList<Future<Integer>>();
            tasks.forEach(task -> futures.add(pool.submit(task)));
            start.countDown();
            var advanced = 0;
            for (var future : futures) {
                advanced += future.get(30, TimeUnit.SECONDS);
            }

            assertThat(advanced).isEqualTo(ids.size());
        } finally {
            pool.shutdownNow();
        }
        assertThat(app.metrics.total("validated")).isEqualTo(ids.size());
        for (var id : ids) {
            assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
            assertThat(app.operations.history(id)).filteredOn(h -> h.event() == WorkflowEvent.DEPLOYED).hasSize(1);
        }
    }
}
