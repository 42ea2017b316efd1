package io.changeflow.adapter.web;

import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.fake.FakeActivity;
import io.changeflow.application.fake.FakeInstances;
import io.changeflow.application.fake.FakeProjectSetup;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.instance.ShowInstances;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.ListTargets;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.query.ShowOverview;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.setup.CheckGitLabSetup;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.state.Convergence;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application's use cases as the web adapter needs them, on the in-memory fakes of
 * {@link InMemoryChangeflow} (the application's test-jar). The whole {@link InMemoryChangeflow} is a
 * bean too, so tests drive its work queue, clock and fakes and assert on them. Its clock, audit log
 * and permissions are its own (not beans): the web layer keeps the test context's.
 */
@Configuration(proxyBeanMethods = false)
class InMemoryUseCases {

    @Bean
    InMemoryChangeflow changeflow() {
        return new InMemoryChangeflow();
    }

    @Bean
    SubmitChangeRequest submitChangeRequest(InMemoryChangeflow app) {
        return app.submit;
    }

    @Bean
    io.changeflow.application.grant.RemoveGrant removeGrant(InMemoryChangeflow app) {
        return app.removeGrant;
    }

    @Bean
    io.changeflow.application.grant.RevokeUrgently revokeUrgently(InMemoryChangeflow app) {
        return new io.changeflow.application.grant.RevokeUrgently(app.removeGrant, app.batchRound, app.targets);
    }

    @Bean
    io.changeflow.application.grant.ListExpiringGrants listExpiringGrants(InMemoryChangeflow app) {
        return app.expiringGrants;
    }

    @Bean
    io.changeflow.application.query.ExportGrantLives exportGrantLives(InMemoryChangeflow app) {
        return new io.changeflow.application.query.ExportGrantLives(
                new io.changeflow.application.fake.FakeGrantRecords(app.operations), 2, 3);
    }

    @Bean
    ShowChangeRequest showChangeRequest(InMemoryChangeflow app) {
        return app.showRequest;
    }

    @Bean
    ListMyRequests listMyRequests(InMemoryChangeflow app) {
        return app.myRequests;
    }

    @Bean
    ListMyBindings listMyBindings(InMemoryChangeflow app) {
        return app.myBindings;
    }

    @Bean
    ListTargets listTargets(InMemoryChangeflow app) {
        return new ListTargets(app.targets);
    }

    @Bean
    PreviewChange previewChange(InMemoryChangeflow app) {
        return app.preview;
    }

    @Bean
    HandleApprovalCallback handleApprovalCallback(InMemoryChangeflow app) {
        return app.approvalCallback;
    }

    @Bean
    HandleDeployCallback handleDeployCallback(InMemoryChangeflow app) {
        return app.deployCallback;
    }

    @Bean
    io.changeflow.application.callback.WakeOnGitLabEvent wakeOnGitLabEvent(InMemoryChangeflow app) {
        return new io.changeflow.application.callback.WakeOnGitLabEvent(app.inbox, app.operations, app.queue);
    }

    @Bean
    FindStuckRequests findStuckRequests(InMemoryChangeflow app) {
        return app.findStuck;
    }

    @Bean
    FindOverdueRequests findOverdueRequests(InMemoryChangeflow app) {
        return new FindOverdueRequests(app.operations, app.queue, Convergence.standard(),
                FindOverdueRequests.Deadlines.defaults(), app.clock);
    }

    @Bean
    FakeInstances fakeInstances(InMemoryChangeflow app) {
        return new FakeInstances(app.clock);
    }

    @Bean
    ShowInstances showInstances(FakeInstances instances) {
        return new ShowInstances(instances, Duration.ofSeconds(60));
    }

    @Bean
    FakeProjectSetup fakeProjectSetup() {
        return new FakeProjectSetup();
    }

    @Bean
    CheckGitLabSetup checkGitLabSetup(InMemoryChangeflow app, FakeProjectSetup setup) {
        return new CheckGitLabSetup(app.targets, setup);
    }

    @Bean
    FakeActivity fakeActivity(InMemoryChangeflow app) {
        return new FakeActivity(app.operations);
    }

    /** GitLab's breaker as a test sets it (the approval system's stays closed with no calls). */
    @Bean
    AtomicReference<ExternalSystemHealth.Status> gitLabStatus() {
        return new AtomicReference<>(new ExternalSystemHealth.Status("gitlab", "CLOSED", Optional.empty(), 0, 0, 0));
    }

    @Bean
    ShowOverview showOverview(InMemoryChangeflow app, FakeActivity activity, AtomicReference<ExternalSystemHealth.Status> gitLab) {
        ExternalSystemHealth approval = () -> new ExternalSystemHealth.Status("approval", "CLOSED", Optional.empty(), 0, 0, 0);
        return new ShowOverview(activity, app.queue, List.of(gitLab::get, approval), app.targets, Convergence.standard(),
                FindOverdueRequests.Deadlines.defaults(), app.clock);
    }

    /** Drift items in memory (issue 36), shared by the drift use cases; tests record sightings into it. */
    @Bean
    io.changeflow.application.fake.FakeDrifts fakeDrifts() {
        return new io.changeflow.application.fake.FakeDrifts();
    }

    /** The removals the drift actions opened (the workflow's removal is drift detection's; here each gets a fresh ID). */
    @Bean
    DriftRemovals driftRemovals() {
        return new DriftRemovals();
    }

    /** The notifications' outbox, in memory (issue 32: the operators' view of it). */
    @Bean
    io.changeflow.application.fake.FakeNotificationOutbox fakeNotificationOutbox(InMemoryChangeflow app) {
        return new io.changeflow.application.fake.FakeNotificationOutbox(app.operations);
    }

    @Bean
    io.changeflow.application.notify.ListNotifications listNotifications(
            io.changeflow.application.fake.FakeNotificationOutbox outbox) {
        return new io.changeflow.application.notify.ListNotifications(outbox);
    }

    @Bean
    io.changeflow.application.drift.ListDrift listDrift(io.changeflow.application.fake.FakeDrifts drifts) {
        return new io.changeflow.application.drift.ListDrift(drifts);
    }

    @Bean
    io.changeflow.application.drift.ListMyDrift listMyDrift(io.changeflow.application.fake.FakeDrifts drifts,
            InMemoryChangeflow app) {
        return new io.changeflow.application.drift.ListMyDrift(drifts, app.operations);
    }

    @Bean
    io.changeflow.application.drift.ActOnDrift actOnDrift(io.changeflow.application.fake.FakeDrifts drifts,
            DriftRemovals removals, InMemoryChangeflow app) {
        return new io.changeflow.application.drift.ActOnDrift(drifts, removals, app.submit, app.audit, app.clock);
    }

    @Bean
    ShowOperation showOperation(InMemoryChangeflow app) {
        return app.showOperation;
    }

    @Bean
    RetriggerStep retriggerStep(InMemoryChangeflow app) {
        return app.retrigger;
    }

    @Bean
    CloseChangeRequest closeChangeRequest(InMemoryChangeflow app) {
        return app.closeRequest;
    }

    @Bean
    ConfirmDeployed confirmDeployed(InMemoryChangeflow app) {
        return app.confirmDeployed;
    }

    @Bean
    MarkDeployFailed markDeployFailed(InMemoryChangeflow app) {
        return app.markDeployFailed;
    }

    @Bean
    ReconcileMergedRequests reconcileMergedRequests(InMemoryChangeflow app) {
        return app.reconcile;
    }

    @Bean
    ShowStats showStats(InMemoryChangeflow app) {
        return new ShowStats(app.operations);
    }

    @Bean
    ListBatches listBatches(InMemoryChangeflow app) {
        return app.listBatches;
    }

    @Bean
    RunBatchRound runBatchRound(InMemoryChangeflow app) {
        return app.batchRound;
    }

    @Bean
    SettleBatch settleBatch(InMemoryChangeflow app) {
        return app.settleBatch;
    }
}
