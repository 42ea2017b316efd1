package io.changeflow.application.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.reconcile.Matching;
import io.changeflow.domain.reconcile.ReconciliationMatching;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Design 3.7: deploy callbacks, lost ones converged by reconciliation, the metric counted exactly once. */
class DeployAndReconcileTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId merged(String subject) {
        return app.merged(subject);
    }

    /** A merged request written straight through the operations port (fast: no queue, no GitLab). */
    private OperationId mergedWithoutTheWorkflow(String subject, long iid) {
        var request = new ChangeRequest(OperationId.of(InMemoryChangeflow.newOperationId()), subject, FakeTargets.SINGLE,
                SubjectId.of(subject), "bulk", Optional.empty());
        var op = ((Operations.OpenResult.Opened) app.operations.open(request, StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted")).operation();
        app.operations.recordMergeRequest(op.id(), new MergeRequestRef(FakeTargets.PROJECT, iid, "b" + iid, "u"));
        for (var event : List.of(WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE,
                WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED)) {
            op = app.operations.apply(op.id(), op.version(), event, Operations.StepNote.system(event.name()));
        }
        return op.id();
    }

    private ReconcileMergedRequests watermark() {
        return app.reconciliation(ReconciliationMatching.everywhere(Matching.WATERMARK));
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
    void aRepeatedReportWhoseFirstDeliveryWasRecordedButNeverAppliedMakesTheRequestInEffect() {
        var id = merged("bob");
        // the first delivery's instance recorded the ID and was killed before it stored the report
        assertThat(app.inbox.firstDelivery(HandleDeployCallback.SOURCE, "d-died")).isTrue();

        var repeat = report("d-died", app.mr(id).iid(), List.of(id.value()));

        assertThat(repeat).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.DUPLICATE, 1));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.inbox.deployedOperations(List.of(id))).containsExactly(id);
        assertThat(app.metrics.total("validated")).isEqualTo(1);
        assertThat(report("d-died", app.mr(id).iid(), List.of(id.value())).advanced()).isZero();
        assertThat(app.metrics.total("validated")).isEqualTo(1);
    }

    @Test
    void aRepeatedReportNamingARequestNowOnAnotherMergeRequestLeavesItAlone() {
        var id = merged("bob");
        var iid = app.mr(id).iid();
        assertThat(app.inbox.firstDelivery(HandleDeployCallback.SOURCE, "d-old")).isTrue();

        var repeat = report("d-old", iid + 100, List.of(id.value()));

        assertThat(repeat.advanced()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aRepeatedFailedReportIsNotAppliedAgain() {
        var id = merged("carol");
        assertThat(app.inbox.firstDelivery(HandleDeployCallback.SOURCE, "d-failed")).isTrue();

        var repeat = app.deployCallback.handle(new HandleDeployCallback.Command("d-failed", FakeTargets.PROJECT,
                app.mr(id).iid(), "failed", List.of()));

        assertThat(repeat.answer()).isEqualTo(CallbackAnswer.DUPLICATE);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aFailedDeployAdvancesNothingAndDoesNotRaiseTheWatermark() {
        var id = merged("carol");

        var result = app.deployCallback.handle(new HandleDeployCallback.Command("d-3", FakeTargets.PROJECT, app.mr(id).iid(),
                "failed", List.of()));

        assertThat(result.advanced()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_FAILED);
        assertThat(app.inbox.largestDeployedIid(FakeTargets.PROJECT)).isEmpty();
    }

    @Test
    void aLostDeployCallbackIsReconciledOnceItIsOlderThanTheMinimumAge() {
        var lost = merged("dave");
        var later = merged("erin");
        assertThat(app.mr(later).iid()).isGreaterThan(app.mr(lost).iid());
        report("d-4", app.mr(later).iid(), List.of());

        var tooEarly = watermark().reconcile(ReconcileMergedRequests.Command.scheduled());
        assertThat(tooEarly.advanced()).isZero();
        assertThat(app.op(lost).binding()).contains(BindingStatus.MERGED);

        app.clock.advance(Duration.ofMinutes(11));
        assertThat(app.reconcileMerged())
                .as("exact matching (the default) infers nothing from another merge request's report")
                .isEqualTo(new ReconcileMergedRequests.Result(1, 0));
        var run = watermark().reconcile(ReconcileMergedRequests.Command.scheduled());

        assertThat(run).isEqualTo(new ReconcileMergedRequests.Result(1, 1));
        assertThat(app.op(lost).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(lost).detail()).contains("reconciliation");
        assertThat(app.metrics.total("validated")).isEqualTo(2);
    }

    @Test
    void aMergeRequestAboveTheWatermarkWaitsForTheNextRun() {
        var waiting = merged("frank");
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.reconcileMerged()).isEqualTo(new ReconcileMergedRequests.Result(1, 0));
        assertThat(app.op(waiting).binding()).contains(BindingStatus.MERGED);
    }

    /** Issue 20.6: a merged record stays a candidate until it advances or leaves MERGED; no window drops it. */
    @Test
    void recordsOlderThanADayAreStillLookedAtAndAdvanceOnEvidence() {
        var old = merged("grace");
        app.clock.advance(Duration.ofHours(25));

        assertThat(app.reconcileMerged()).isEqualTo(new ReconcileMergedRequests.Result(1, 0));
        app.clock.advance(Duration.ofDays(6));
        // its report was stored, but the callback's own advance was lost
        app.inbox.recordDeploy("late-report", FakeTargets.PROJECT, app.mr(old).iid(), "success", List.of());

        assertThat(app.reconcileMerged()).isEqualTo(new ReconcileMergedRequests.Result(1, 1));
        assertThat(app.op(old).binding()).contains(BindingStatus.VALIDATED);
    }

    /** Issue 20.6: 1,000 records that never advance ahead of one that can; it advances in run 3 (limit 500). */
    @Test
    void aThousandRecordsThatNeverAdvanceDoNotHideANewerOneThatCan() {
        var stuck = new ArrayList<OperationId>();
        for (var i = 0; i < 1000; i++) {
            stuck.add(mergedWithoutTheWorkflow("u" + i, 10_000 + i));
        }
        app.clock.advance(Duration.ofMinutes(1));
        var advanceable = merged("newest");
        // a report of another merge request named it; the callback's advance of it was lost
        app.inbox.recordDeploy("named", FakeTargets.PROJECT, 999_999, "success", List.of(advanceable));
        app.clock.advance(Duration.ofMinutes(11));

        var runs = new ArrayList<ReconcileMergedRequests.Result>();
        while (app.op(advanceable).binding().equals(Optional.of(BindingStatus.MERGED))) {
            assertThat(runs).as("advanced within ceil(1001 / 500) = 3 runs").hasSizeLessThan(3);
            runs.add(app.reconcileMerged());
        }

        assertThat(runs).containsExactly(new ReconcileMergedRequests.Result(500, 0),
                new ReconcileMergedRequests.Result(500, 0), new ReconcileMergedRequests.Result(1, 1));
        assertThat(app.reconcileMerged().examined())
                .as("the scan wrapped around to the oldest again").isEqualTo(500);
        assertThat(stuck).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.MERGED));
    }

    /**
     * Issue 13.2: !10 is created before !11 but merged after it; !11's report arrives, !10's deploy failed. No
     * mode declares !10 in effect: merge request numbers are not merge order.
     */
    @Test
    void aReportOfAMergeRequestMergedEarlierNeverDeclaresALaterMergedOneInEffect() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var ten = app.submitAccepted(FakeTargets.SINGLE, "ten");
        var eleven = app.submitAccepted(FakeTargets.SINGLE, "eleven");
        app.queue.runUntilIdle();
        assertThat(app.mr(ten).iid()).isLessThan(app.mr(eleven).iid());
        app.decide(eleven, Decision.APPROVED);
        app.queue.runUntilIdle();
        app.decide(ten, Decision.APPROVED);
        app.queue.runUntilIdle();
        assertThat(app.op(ten).binding()).contains(BindingStatus.MERGED);

        report("d-11", app.mr(eleven).iid(), List.of());
        app.deployCallback.handle(new HandleDeployCallback.Command("d-10", FakeTargets.PROJECT, app.mr(ten).iid(), "failed",
                List.of()));
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.op(eleven).binding()).contains(BindingStatus.VALIDATED);
        for (var mode : Matching.values()) {
            assertThat(app.reconciliation(ReconciliationMatching.everywhere(mode))
                    .reconcile(ReconcileMergedRequests.Command.scheduled()).advanced()).as("%s", mode).isZero();
            // its own failed report made it an explicit deploy failure; no later report declares it in effect
            assertThat(app.op(ten).binding()).as("%s", mode).contains(BindingStatus.DEPLOY_FAILED);
        }
    }

    /** Issue 13.2: where the watermark is allowed, a report of a later-merged merge request advances an earlier-merged one. */
    @Test
    void inWatermarkModeAReportOfALaterMergedMergeRequestAdvancesAnEarlierMergedOne() {
        var first = merged("first");
        var second = merged("second");
        var third = merged("third");
        // the second's report names only its own operation; the third's names none
        report("d-second", app.mr(second).iid(), List.of(second.value()));
        app.clock.advance(Duration.ofMinutes(11));

        assertThat(app.reconcileMerged().advanced()).isZero();
        assertThat(app.reconciliation(ReconciliationMatching.everywhere(Matching.EXACT_WITH_WATERMARK_FALLBACK))
                .reconcile(ReconcileMergedRequests.Command.scheduled()).advanced())
                .as("a report with IDs said exactly what it deployed").isZero();
        assertThat(app.op(first).binding()).contains(BindingStatus.MERGED);

        var perProject = new ReconciliationMatching(Matching.EXACT, Map.of(FakeTargets.PROJECT, Matching.WATERMARK));
        assertThat(app.reconciliation(perProject).reconcile(ReconcileMergedRequests.Command.scheduled()).advanced())
                .isEqualTo(1);
        assertThat(app.op(first).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(first).detail()).contains("inferred by reconciliation");
        assertThat(app.op(third).binding()).as("merged after the reported one").contains(BindingStatus.MERGED);

        report("d-third", app.mr(third).iid(), List.of());
        assertThat(app.op(third).binding()).contains(BindingStatus.VALIDATED);
    }

    @Test
    void inFallbackModeOnlyReportsWithoutOperationIdsRaiseTheWatermark() {
        var first = merged("f1");
        var second = merged("f2");
        app.inbox.recordDeploy("no-ids", FakeTargets.PROJECT, app.mr(second).iid(), "success", List.of());
        app.clock.advance(Duration.ofMinutes(11));

        var run = app.reconciliation(ReconciliationMatching.everywhere(Matching.EXACT_WITH_WATERMARK_FALLBACK))
                .reconcile(ReconcileMergedRequests.Command.scheduled());

        assertThat(run.advanced()).isEqualTo(2);
        assertThat(app.op(first).detail()).contains("inferred");
        assertThat(app.op(second).detail()).contains("named it");
    }

    /** Issue 13.5: the advance is pinned to the version read; a request that moved on since is skipped. */
    @Test
    void anAdvanceDecidedOnAStaleReadIsSkippedAndCountedNowhere() {
        var id = merged("pinned");
        var read = app.op(id);
        report("d-pin", app.mr(id).iid(), List.of());

        assertThat(app.markDeployed.markDeployed(read, new Operations.StepNote("late", "reconciliation"))).isEmpty();
        assertThat(app.metrics.total("validated")).isEqualTo(1);
        assertThat(app.operations.history(id)).filteredOn(h -> h.event() == WorkflowEvent.DEPLOYED).hasSize(1);
    }

    @Test
    void aReportNamingAnOperationOfAnotherMergeRequestAdvancesNothing() {
        var named = merged("heidi");
        var other = merged("ivan");

        var result = report("d-5", app.mr(other).iid(), List.of(named.value()));

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 0, 1));
        assertThat(app.op(named).binding()).contains(BindingStatus.MERGED);
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
        assertThat(app.reconcileMerged().advanced()).isZero();
        assertThat(app.op(lost).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(later).binding()).contains(BindingStatus.MERGED);
        assertThat(app.inbox.deploys()).hasSize(2);

        app.inbox.recordDeploy("success-report", FakeTargets.PROJECT, app.mr(lost).iid(), "success", List.of());

        assertThat(app.inbox.largestDeployedIid(FakeTargets.PROJECT)).hasValue(app.mr(lost).iid());
        assertThat(app.reconcileMerged().advanced()).isEqualTo(1);
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
        var reconcile = watermark();

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
                    return reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()).advanced();
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
