package io.changeflow.adapter.web;

import io.changeflow.adapter.web.api.ApiExceptionHandler;
import io.changeflow.adapter.web.api.BatchesController;
import io.changeflow.adapter.web.api.CallbacksController;
import io.changeflow.adapter.web.api.GitLabHookSettings;
import io.changeflow.adapter.web.api.GitLabHooksController;
import io.changeflow.adapter.web.api.ConfigController;
import io.changeflow.adapter.web.api.DemoLoginController;
import io.changeflow.adapter.web.api.EnvelopeErrorController;
import io.changeflow.adapter.web.api.GrantsController;
import io.changeflow.adapter.web.api.InstancesController;
import io.changeflow.adapter.web.api.OpenApiDocument;
import io.changeflow.adapter.web.api.OpenApiOperations;
import io.changeflow.adapter.web.api.OperationsController;
import io.changeflow.adapter.web.api.GitLabCheckController;
import io.changeflow.adapter.web.api.OverdueController;
import io.changeflow.adapter.web.api.OverviewController;
import io.changeflow.adapter.web.api.RequestsController;
import io.changeflow.adapter.web.api.UserController;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.instance.ShowInstances;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.ConfigSources;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.ListTargets;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.identity.Identity;
import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import tools.jackson.databind.json.JsonMapper;

/** The web adapter's endpoints: the controllers, the error model and the OpenAPI description. */
@Configuration(proxyBeanMethods = false)
class WebApiConfiguration {

    @Bean
    ApiExceptionHandler apiExceptionHandler(SafeMeters meters) {
        return new ApiExceptionHandler(meters);
    }

    @Bean
    EnvelopeErrorController envelopeErrorController(ApiExceptionHandler handler) {
        return new EnvelopeErrorController(handler);
    }

    @Bean
    SpaController spaController() {
        return new SpaController();
    }

    @Bean
    ConfigController configController(Settings settings, ConfigSources sources) {
        return new ConfigController(settings, sources);
    }

    @Bean
    RequestsController requestsController(SubmitChangeRequest submit, ShowChangeRequest show, ListMyRequests myRequests,
            PreviewChange preview) {
        return new RequestsController(submit, show, myRequests, preview);
    }

    @Bean
    UserController userController(CallerIdentity identities, PermissionChecks permissions, AuthorizationRules rules,
            AccessGate accessGate, ListTargets targets, ListMyBindings bindings, WebProperties properties) {
        return new UserController(identities, permissions, rules, accessGate, targets, bindings, properties.demoLogin());
    }

    @Bean
    CallbacksController callbacksController(CallbackAuthenticity authenticity, HandleApprovalCallback approvals,
            HandleDeployCallback deploys, ObjectProvider<JsonMapper> mapper, SafeMeters meters) {
        return new CallbacksController(authenticity, approvals, deploys, mapper.getIfAvailable(() -> JsonMapper.builder().build()),
                meters);
    }

    @Bean
    GitLabHooksController gitLabHooksController(io.changeflow.application.callback.WakeOnGitLabEvent wake,
            org.springframework.core.env.Environment environment, ObjectProvider<JsonMapper> mapper, SafeMeters meters) {
        return new GitLabHooksController(GitLabHookSettings.from(environment), wake,
                mapper.getIfAvailable(() -> JsonMapper.builder().build()), meters);
    }

    @Bean
    OperationsController operationsController(FindStuckRequests find, ShowOperation show, RetriggerStep retrigger,
            CloseChangeRequest close, ReconcileMergedRequests reconcile, ShowStats stats, ConfirmDeployed confirmDeployed,
            MarkDeployFailed markDeployFailed) {
        return new OperationsController(find, show, retrigger, close, reconcile, stats, confirmDeployed, markDeployFailed);
    }

    @Bean
    GrantsController grantsController(io.changeflow.application.grant.RemoveGrant remove,
            io.changeflow.application.grant.ListExpiringGrants expiring, io.changeflow.application.grant.RevokeUrgently urgently) {
        return new GrantsController(remove, expiring, urgently);
    }

    @Bean
    io.changeflow.adapter.web.api.AuditExportController auditExportController(
            io.changeflow.application.query.ExportGrantLives export, ObjectProvider<JsonMapper> mapper) {
        return new io.changeflow.adapter.web.api.AuditExportController(export,
                mapper.getIfAvailable(() -> JsonMapper.builder().build()));
    }

    @Bean
    GitLabCheckController gitLabCheckController(io.changeflow.application.setup.CheckGitLabSetup check) {
        return new GitLabCheckController(check);
    }

    @Bean
    io.changeflow.adapter.web.api.DriftController driftController(io.changeflow.application.drift.ListDrift list,
            io.changeflow.application.drift.ListMyDrift mine, io.changeflow.application.drift.ActOnDrift act) {
        return new io.changeflow.adapter.web.api.DriftController(list, mine, act);
    }

    @Bean
    io.changeflow.adapter.web.api.NotificationsController notificationsController(
            io.changeflow.application.notify.ListNotifications list) {
        return new io.changeflow.adapter.web.api.NotificationsController(list);
    }

    @Bean
    OverdueController overdueController(FindOverdueRequests find) {
        return new OverdueController(find);
    }

    @Bean
    InstancesController instancesController(ShowInstances show) {
        return new InstancesController(show);
    }

    @Bean
    OverviewController overviewController(io.changeflow.application.query.ShowOverview overview) {
        return new OverviewController(overview);
    }

    @Bean
    BatchesController batchesController(ListBatches list, RunBatchRound round, SettleBatch settle) {
        return new BatchesController(list, round, settle);
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.sandbox.demo-login", havingValue = "true")
    @Profile(WebProperties.SANDBOX_PROFILE)
    DemoLoginController demoLoginController(DemoPeople people) {
        return new DemoLoginController(people);
    }

    /** What the OpenAPI document learns from each handler (springdoc calls it for every operation). */
    @Bean
    OpenApiOperations openApiOperations() {
        // the verified caller is resolved from the identity headers (the security schemes), never a parameter
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Identity.class);
        return new OpenApiOperations();
    }

    /** What the OpenAPI document says once for many endpoints: envelope, codes, identity, callbacks, monitoring. */
    @Bean
    OpenApiDocument openApiDocument(AuthorizationRules rules, OpenApiOperations operations, WebProperties properties) {
        return new OpenApiDocument(rules, operations, properties.monitoringRuleCodes(), properties.demoLogin());
    }

    @Bean
    OpenAPI openApi(OpenApiDocument document) {
        return document.head();
    }
}
