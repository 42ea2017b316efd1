package io.changeflow.adapter.web;

import io.changeflow.adapter.web.api.ApiExceptionHandler;
import io.changeflow.adapter.web.api.BatchesController;
import io.changeflow.adapter.web.api.CallbacksController;
import io.changeflow.adapter.web.api.ConfigController;
import io.changeflow.adapter.web.api.DemoLoginController;
import io.changeflow.adapter.web.api.EnvelopeErrorController;
import io.changeflow.adapter.web.api.GrantsController;
import io.changeflow.adapter.web.api.OpenApiDocument;
import io.changeflow.adapter.web.api.OpenApiOperations;
import io.changeflow.adapter.web.api.OperationsController;
import io.changeflow.adapter.web.api.OverdueController;
import io.changeflow.adapter.web.api.OverviewController;
import io.changeflow.adapter.web.api.RequestsController;
import io.changeflow.adapter.web.api.UserController;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.guard.AuthorizationInterceptor;
import io.changeflow.adapter.web.guard.BlankAcceptFilter;
import io.changeflow.adapter.web.guard.BodySizeLimitFilter;
import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import io.changeflow.adapter.web.guard.MonitoringAccessFilter;
import io.changeflow.adapter.web.guard.RateLimitInterceptor;
import io.changeflow.adapter.web.guard.ReservedParameterFilter;
import io.changeflow.adapter.web.guard.SlidingWindowLimiter;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.web.identity.VerifiedCallerResolver;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import io.changeflow.adapter.web.metrics.MicrometerBusinessMetrics;
import io.changeflow.adapter.web.metrics.MicrometerCallMetrics;
import io.changeflow.adapter.web.metrics.SafeMeterObservationHandler;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.adapter.web.metrics.WorkflowGauges;
import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.ConfigSources;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.Permissions;
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
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.swagger.v3.oas.models.OpenAPI;
import jakarta.servlet.Filter;
import java.time.Clock;
import java.util.Set;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web adapter: the HTTP contract. Import it from the application.
 *
 * <p>It provides: the endpoints (user API {@code /api/**}, signed callbacks {@code /callbacks/**},
 * operations API {@code /ops/**} including the legacy {@code GET /ops/stats} and {@code GET /ops/config});
 * the four interceptors in their order (rate limit, authorization by the path table, API metrics,
 * business activity); the filters (security headers, traceId, body size limit, server-written operator
 * parameter, cross-site writes refused, monitoring for operators only);
 * the error model (one {@code @RestControllerAdvice} plus the container error page); the SPA's
 * static resources with their cache headers and fallback; the one {@link Settings} bean of the
 * application (on the {@link DynamicConfig}); the application's {@link BusinessMetrics} on Micrometer; the sandbox demo login
 * (only with {@code changeflow.sandbox.demo-login=true}); a meter observation handler that cannot
 * throw, in place of Boot's (so a failing metrics registry cannot break {@code http.server.requests}).
 *
 * <p>It needs, as beans: the use cases {@link SubmitChangeRequest}, {@link ShowChangeRequest},
 * {@link ListMyRequests}, {@link ListMyBindings}, {@link ListTargets}, {@link PreviewChange},
 * {@link HandleApprovalCallback}, {@link HandleDeployCallback}, {@link FindStuckRequests},
 * {@link ShowOperation}, {@link RetriggerStep}, {@link CloseChangeRequest},
 * {@link ReconcileMergedRequests}, {@link ShowStats}, {@link ListBatches}, {@link RunBatchRound},
 * {@link SettleBatch}; and the ports {@link CallbackAuthenticity}, {@link DynamicConfig} and its
 * {@link ConfigSources}, {@link Directory}, {@link Permissions}, {@link AuditLog}, and with the demo login
 * {@link DemoPeople} (the local adapters provide all but the audit log and the callback check).
 *
 * <p>Optional collaborators: a {@link Clock} (else the UTC system clock), a {@link MeterRegistry},
 * a {@link ClusterRateLimits} (else
 * {@code ratelimit.scope=cluster} degrades to local limiting), a {@link JsonMapper}. Every setting
 * is in docs/configuration.md.
 */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

    @Bean
    WebProperties changeflowWebProperties(Environment environment) {
        return WebProperties.load(environment);
    }

    @Bean
    Settings settings(DynamicConfig dynamicConfig) {
        return new Settings(dynamicConfig);
    }

    @Bean
    AccessGate accessGate(Settings settings, ObjectProvider<Clock> clock) {
        return new AccessGate(settings, clock(clock));
    }

    @Bean
    TrustedProxies trustedProxies(WebProperties properties) {
        return TrustedProxies.parse(properties.trustedProxies());
    }

    @Bean
    CallerIdentity callerIdentity(TrustedProxies proxies, Directory directory, WebProperties properties) {
        return new CallerIdentity(proxies, directory, properties.demoLogin(), Set.copyOf(properties.emailDomains()));
    }

    @Bean
    SafeMeters safeMeters(ObjectProvider<MeterRegistry> registry) {
        return new SafeMeters(registry.getIfAvailable(SimpleMeterRegistry::new));
    }

    /** Replaces Boot's meter observation handler with one that cannot throw into a request. */
    @Bean
    DefaultMeterObservationHandler safeMeterObservationHandler(ObjectProvider<MeterRegistry> registry) {
        return new SafeMeterObservationHandler(registry.getIfAvailable(SimpleMeterRegistry::new));
    }

    @Bean
    JsonResponses jsonResponses(ObjectProvider<JsonMapper> mapper) {
        return new JsonResponses(mapper.getIfAvailable(() -> JsonMapper.builder().build()));
    }

    @Bean
    SlidingWindowLimiter slidingWindowLimiter(WebProperties properties, ObjectProvider<Clock> clock) {
        return new SlidingWindowLimiter(clock(clock), properties.rateLimitMaxKeys(), properties.rateLimitMaxAddressKeys());
    }

    @Bean
    RateLimitInterceptor rateLimitInterceptor(Settings settings, SlidingWindowLimiter limiter, ObjectProvider<ClusterRateLimits> clusterLimits, CallerIdentity identities,
            TrustedProxies proxies, SafeMeters meters, JsonResponses responses, WebProperties properties) {
        return new RateLimitInterceptor(settings, limiter, clusterLimits.getIfAvailable(),
                new TimeBoxedCalls("ratelimit-cluster", 4, 16, properties.clusterRateLimitTimeout()),
                identities, proxies, meters, responses);
    }

    @Bean
    AuthorizationRules authorizationRules(WebProperties properties) {
        return AuthorizationRules.of(properties.authorizationRules());
    }

    /** The permission checks of the web layer, on the {@link Permissions} bean with its deadline ({@link IdentityPortDeadlines}). */
    @Bean
    PermissionChecks permissionChecks(Permissions permissions) {
        return new PermissionChecks(permissions);
    }

    /**
     * Deadlines and bulkheads on the {@link Permissions} and {@link Directory} beans, whoever defines them.
     * Static: a post-processor is created before the beans it processes.
     */
    @Bean
    static IdentityPortDeadlines identityPortDeadlines(Environment environment) {
        return new IdentityPortDeadlines(() -> WebProperties.load(environment));
    }

    @Bean
    AuthorizationInterceptor authorizationInterceptor(CallerIdentity identities, PermissionChecks permissions,
            AuthorizationRules rules, AuditLog auditLog, ObjectProvider<Clock> clock, JsonResponses responses,
            SafeMeters meters) {
        return new AuthorizationInterceptor(identities, permissions, rules, auditLog, clock(clock), responses, meters);
    }

    @Bean
    BusinessActivityInterceptor businessActivityInterceptor(WebProperties properties, CallerIdentity identities,
            SafeMeters meters) {
        return new BusinessActivityInterceptor(BusinessActivityInterceptor.parseAllowlist(properties.businessActivities()),
                identities, meters);
    }

    @Bean
    WebMvcSetup changeflowWebMvcSetup(RateLimitInterceptor rateLimit, AuthorizationInterceptor authorization,
            AuthorizationRules rules, BusinessActivityInterceptor businessActivity,
            CallerIdentity identities, WebProperties properties) {
        return new WebMvcSetup(rateLimit, authorization, rules.patterns(), businessActivity,
                new SpaFallbackResolver(properties.apiPrefixes()), new VerifiedCallerResolver(identities));
    }

    /** Outermost: the security headers are on every response, whichever filter or handler writes it. */
    @Bean
    FilterRegistrationBean<Filter> securityHeadersFilter() {
        return filter(SecurityHeadersFilter.forServedPage(), Ordered.HIGHEST_PRECEDENCE + 1);
    }

    @Bean
    FilterRegistrationBean<Filter> requestTraceFilter() {
        return filter(new RequestTraceFilter(), Ordered.HIGHEST_PRECEDENCE + 2);
    }

    @Bean
    FilterRegistrationBean<Filter> bodySizeLimitFilter(WebProperties properties, JsonResponses responses) {
        return filter(new BodySizeLimitFilter(properties.maxBodySize().toBytes(), responses), Ordered.HIGHEST_PRECEDENCE + 3);
    }

    @Bean
    FilterRegistrationBean<Filter> blankAcceptFilter() {
        return filter(new BlankAcceptFilter(), Ordered.HIGHEST_PRECEDENCE + 5);
    }

    @Bean
    FilterRegistrationBean<Filter> reservedParameterFilter() {
        return filter(new ReservedParameterFilter(), Ordered.HIGHEST_PRECEDENCE + 4);
    }

    /** Cross-site writes are refused before the container parses a form body or anything runs. */
    @Bean
    FilterRegistrationBean<Filter> crossSiteRequestFilter(WebProperties properties, JsonResponses responses, SafeMeters meters) {
        return filter(new CrossSiteRequestFilter(properties.allowedOrigins(), responses, meters), Ordered.HIGHEST_PRECEDENCE + 6);
    }

    /** Monitoring is for operators: the health status is public, its details and the scrape are not. */
    @Bean
    FilterRegistrationBean<Filter> monitoringAccessFilter(CallerIdentity identities, PermissionChecks permissions,
            WebProperties properties, JsonResponses responses, SafeMeters meters) {
        return filter(new MonitoringAccessFilter(identities, permissions, Set.copyOf(properties.monitoringRuleCodes()),
                responses, meters), Ordered.HIGHEST_PRECEDENCE + 7);
    }

    /** Form bodies are parsed by the container, not through the body filter: same limit there. */
    @Bean
    WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> formBodyLimit(WebProperties properties) {
        var limit = (int) Math.min(Integer.MAX_VALUE, properties.maxBodySize().toBytes());
        return factory -> factory.addConnectorCustomizers(connector -> connector.setMaxPostSize(limit));
    }

    @Bean
    ApiExceptionHandler apiExceptionHandler() {
        return new ApiExceptionHandler();
    }

    @Bean
    EnvelopeErrorController envelopeErrorController() {
        return new EnvelopeErrorController();
    }

    @Bean
    SpaController spaController() {
        return new SpaController();
    }

    @Bean
    ConfigController configController(Settings settings, ConfigSources sources) {
        return new ConfigController(settings, sources);
    }

    /** The calls of the GitLab and approval adapters, on the meter registry; never throws into the call. */
    @Bean
    CallMetrics micrometerCallMetrics(SafeMeters meters) {
        return new MicrometerCallMetrics(meters);
    }

    /** The application's business outcome metrics on Micrometer; never throws into the business code. */
    @Bean
    BusinessMetrics micrometerBusinessMetrics(SafeMeters meters) {
        return new MicrometerBusinessMetrics(meters);
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
    OperationsController operationsController(FindStuckRequests find, ShowOperation show, RetriggerStep retrigger,
            CloseChangeRequest close, ReconcileMergedRequests reconcile, ShowStats stats, ConfirmDeployed confirmDeployed,
            MarkDeployFailed markDeployFailed) {
        return new OperationsController(find, show, retrigger, close, reconcile, stats, confirmDeployed, markDeployFailed);
    }

    @Bean
    GrantsController grantsController(io.changeflow.application.grant.RemoveGrant remove,
            io.changeflow.application.grant.ListExpiringGrants expiring) {
        return new GrantsController(remove, expiring);
    }

    /** Requests per status and the overdue ones, as gauges on the meter registry. */
    @Bean
    WorkflowGauges workflowGauges(ShowStats stats, FindOverdueRequests find) {
        return new WorkflowGauges(stats, find, System::nanoTime);
    }

    @Bean
    OverdueController overdueController(FindOverdueRequests find) {
        return new OverdueController(find);
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

    private static FilterRegistrationBean<Filter> filter(Filter filter, int order) {
        var registration = new FilterRegistrationBean<Filter>(filter);
        registration.setOrder(order);
        return registration;
    }

    private static Clock clock(ObjectProvider<Clock> clock) {
        return clock.getIfAvailable(Clock::systemUTC);
    }
}
