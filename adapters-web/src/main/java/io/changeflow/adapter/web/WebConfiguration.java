package io.changeflow.adapter.web;

import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.identity.TrustedProxies;
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
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
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
 *
 * <p>The beans are split by concern: the identity, settings and metrics here, the guards (interceptors,
 * filters) in {@link WebGuardConfiguration}, the endpoints and the OpenAPI description in
 * {@link WebApiConfiguration}; this class imports both.
 */
@Configuration(proxyBeanMethods = false)
@Import({WebGuardConfiguration.class, WebApiConfiguration.class})
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
    CallerIdentity callerIdentity(TrustedProxies proxies, Directory directory, DemoPeople demoPeople, WebProperties properties) {
        return new CallerIdentity(proxies, directory, properties.demoLogin(), Set.copyOf(properties.emailDomains()),
                properties.identityHeaders(), demoPeople);
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

    /** Requests per status and the overdue ones, as gauges on the meter registry. */
    @Bean
    WorkflowGauges workflowGauges(ShowStats stats, FindOverdueRequests find) {
        return new WorkflowGauges(stats, find, System::nanoTime);
    }

    /** The application's clock, else the UTC system clock. */
    static Clock clock(ObjectProvider<Clock> clock) {
        return clock.getIfAvailable(Clock::systemUTC);
    }
}
