package io.changeflow.adapter.web;

import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.ClusterRateLimits;
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
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.Filter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.DefaultResourceLoader;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web adapter: the HTTP contract. Import it from the application.
 *
 * <p>It provides: the endpoints (user API {@code /api/**}, signed callbacks {@code /callbacks/**},
 * operations API {@code /ops/**} including the legacy {@code GET /ops/stats} and {@code GET /ops/config});
 * the four interceptors in their order (rate limit, authorization by the path table, API metrics,
 * business activity); the filters (traceId, body size limit, server-written operator parameter);
 * the error model (one {@code @RestControllerAdvice} plus the container error page); the SPA's
 * static resources with their cache headers and fallback; the embedded configuration center
 * ({@link DynamicConfig} on a watched file plus the Environment) and the one {@link Settings} bean of
 * the application; the application's {@link BusinessMetrics} on Micrometer; the sandbox demo login
 * (only with {@code changeflow.sandbox.demo-login=true}); a meter observation handler that cannot
 * throw, in place of Boot's (so a failing metrics registry cannot break {@code http.server.requests}).
 *
 * <p>It needs, as beans: the use cases {@link SubmitChangeRequest}, {@link ShowChangeRequest},
 * {@link ListMyRequests}, {@link ListMyBindings}, {@link ListTargets}, {@link PreviewChange},
 * {@link HandleApprovalCallback}, {@link HandleDeployCallback}, {@link FindStuckRequests},
 * {@link ShowOperation}, {@link RetriggerStep}, {@link CloseChangeRequest},
 * {@link ReconcileMergedRequests}, {@link ShowStats}, {@link ListBatches}, {@link RunBatchRound},
 * {@link SettleBatch}; and the port {@link CallbackAuthenticity}.
 *
 * <p>Embedded defaults, active unless {@code changeflow.identity.embedded-defaults=false}: a
 * {@link Directory} read from a properties file and a {@link Permissions} read from
 * {@code changeflow.permissions.grants.*}. A deployment with a real directory and permission
 * service sets the property to false and wires its own adapters.
 *
 * <p>Optional collaborators: a {@link Clock} (else the UTC system clock), a {@link MeterRegistry},
 * an {@link AuditLog} (else audit entries go to the log), a {@link ClusterRateLimits} (else
 * {@code ratelimit.scope=cluster} degrades to local limiting), a {@link JsonMapper}. Every setting
 * is in docs/configuration.md.
 */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

    private static final String TEMPLATE = "io/changeflow/adapter/web/dynamic-defaults.properties";

    @Bean
    WebProperties changeflowWebProperties(Environment environment) {
        return WebProperties.load(environment);
    }

    @Bean(destroyMethod = "close")
    FileDynamicConfig dynamicConfig(WebProperties properties, Environment environment) {
        return new FileDynamicConfig(properties.dynamicConfigFile(), environment, properties.dynamicConfigPollInterval(),
                template()).start();
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
    DirectoryFile directoryFile(WebProperties properties) {
        return DirectoryFile.load(new DefaultResourceLoader().getResource(properties.directoryLocation()));
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.identity.embedded-defaults", havingValue = "true", matchIfMissing = true)
    Directory fileDirectory(DirectoryFile directoryFile) {
        return new FileDirectory(directoryFile);
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.identity.embedded-defaults", havingValue = "true", matchIfMissing = true)
    Permissions configuredPermissions(WebProperties properties) {
        return new ConfiguredPermissions(properties.permissionGrants());
    }

    @Bean
    TrustedProxies trustedProxies(WebProperties properties) {
        return TrustedProxies.parse(properties.trustedProxies());
    }

    @Bean
    CallerIdentity callerIdentity(TrustedProxies proxies, Directory directory, WebProperties properties) {
        return new CallerIdentity(proxies, directory, properties.demoLogin());
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
        return new SlidingWindowLimiter(clock(clock), properties.rateLimitMaxKeys());
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

    @Bean(destroyMethod = "close")
    PermissionChecks permissionChecks(Permissions permissions, WebProperties properties) {
        return new PermissionChecks(permissions, new TimeBoxedCalls("permission-check", 8, 16, properties.permissionsTimeout()));
    }

    @Bean
    AuthorizationInterceptor authorizationInterceptor(CallerIdentity identities, PermissionChecks permissions,
            AuthorizationRules rules, ObjectProvider<AuditLog> auditLog, ObjectProvider<Clock> clock, JsonResponses responses,
            SafeMeters meters) {
        return new AuthorizationInterceptor(identities, permissions, rules, auditLog.getIfAvailable(LoggingAuditLog::new),
                clock(clock), responses, meters);
    }

    @Bean
    ApiMetrics apiMetrics(SafeMeters meters) {
        return new ApiMetrics(meters);
    }

    @Bean
    ApiMetricsInterceptor apiMetricsInterceptor(ApiMetrics apiMetrics) {
        return new ApiMetricsInterceptor(apiMetrics);
    }

    @Bean
    BusinessActivityInterceptor businessActivityInterceptor(WebProperties properties, CallerIdentity identities,
            SafeMeters meters) {
        return new BusinessActivityInterceptor(BusinessActivityInterceptor.parseAllowlist(properties.businessActivities()),
                identities, meters);
    }

    @Bean
    WebMvcSetup changeflowWebMvcSetup(RateLimitInterceptor rateLimit, AuthorizationInterceptor authorization,
            AuthorizationRules rules, ApiMetricsInterceptor apiMetrics, BusinessActivityInterceptor businessActivity,
            CallerIdentity identities, WebProperties properties) {
        return new WebMvcSetup(rateLimit, authorization, rules.patterns(), apiMetrics, businessActivity,
                new SpaFallbackResolver(properties.apiPrefixes()), new VerifiedCallerResolver(identities));
    }

    @Bean
    FilterRegistrationBean<Filter> requestTraceFilter(ApiMetrics apiMetrics) {
        return filter(new RequestTraceFilter(apiMetrics), Ordered.HIGHEST_PRECEDENCE + 2);
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
    ConfigController configController(Settings settings, FileDynamicConfig config) {
        return new ConfigController(settings, config);
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
            HandleDeployCallback deploys, ObjectProvider<JsonMapper> mapper) {
        return new CallbacksController(authenticity, approvals, deploys, mapper.getIfAvailable(() -> JsonMapper.builder().build()));
    }

    @Bean
    OperationsController operationsController(FindStuckRequests find, ShowOperation show, RetriggerStep retrigger,
            CloseChangeRequest close, ReconcileMergedRequests reconcile, ShowStats stats) {
        return new OperationsController(find, show, retrigger, close, reconcile, stats);
    }

    @Bean
    BatchesController batchesController(ListBatches list, RunBatchRound round, SettleBatch settle) {
        return new BatchesController(list, round, settle);
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.sandbox.demo-login", havingValue = "true")
    DemoLoginController demoLoginController(DirectoryFile directoryFile) {
        return new DemoLoginController(directoryFile);
    }

    private static FilterRegistrationBean<Filter> filter(Filter filter, int order) {
        var registration = new FilterRegistrationBean<Filter>(filter);
        registration.setOrder(order);
        return registration;
    }

    private static Clock clock(ObjectProvider<Clock> clock) {
        return clock.getIfAvailable(Clock::systemUTC);
    }

    private static String template() {
        try (var in = new ClassPathResource(TEMPLATE).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the dynamic configuration template is missing from the web adapter", e);
        }
    }
}
