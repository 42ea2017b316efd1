package io.changeflow.adapter.web;

import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.ListTargets;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.submit.SubmitChangeRequest;
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
    FindStuckRequests findStuckRequests(InMemoryChangeflow app) {
        return app.findStuck;
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
