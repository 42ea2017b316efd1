package io.changeflow.adapter.web;

import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.guard.AuthorizationInterceptor;
import io.changeflow.adapter.web.guard.BlankAcceptFilter;
import io.changeflow.adapter.web.guard.BodySizeLimitFilter;
import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import io.changeflow.adapter.web.guard.DatabaseBudgetFilter;
import io.changeflow.adapter.web.guard.MonitoringAccessFilter;
import io.changeflow.adapter.web.guard.RateLimitInterceptor;
import io.changeflow.adapter.web.guard.ReservedParameterFilter;
import io.changeflow.adapter.web.guard.SlidingWindowLimiter;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.web.identity.VerifiedCallerResolver;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.settings.Settings;
import jakarta.servlet.Filter;
import java.time.Clock;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The web adapter's guards: the interceptors in their order, the filters in theirs, the container's form body limit. */
@Configuration(proxyBeanMethods = false)
class WebGuardConfiguration {

    @Bean
    SlidingWindowLimiter slidingWindowLimiter(WebProperties properties, ObjectProvider<Clock> clock) {
        return new SlidingWindowLimiter(WebConfiguration.clock(clock), properties.rateLimitMaxKeys(),
                properties.rateLimitMaxAddressKeys());
    }

    @Bean
    RateLimitInterceptor rateLimitInterceptor(Settings settings, SlidingWindowLimiter limiter, ObjectProvider<ClusterRateLimits> clusterLimits, CallerIdentity identities,
            TrustedProxies proxies, SafeMeters meters, JsonResponses responses, WebProperties properties) {
        return new RateLimitInterceptor(settings, limiter, clusterLimits.getIfAvailable(),
                new TimeBoxedCalls("ratelimit-cluster", 4, 16, properties.clusterRateLimitTimeout()),
                identities, proxies, meters, responses);
    }

    @Bean
    AuthorizationInterceptor authorizationInterceptor(CallerIdentity identities, PermissionChecks permissions,
            AuthorizationRules rules, AuditLog auditLog, ObjectProvider<Clock> clock, JsonResponses responses,
            SafeMeters meters) {
        return new AuthorizationInterceptor(identities, permissions, rules, auditLog, WebConfiguration.clock(clock),
                responses, meters);
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
    FilterRegistrationBean<Filter> bodySizeLimitFilter(WebProperties properties, JsonResponses responses,
            org.springframework.core.env.Environment environment) {
        var gitLabHooks = io.changeflow.adapter.web.api.GitLabHookSettings.from(environment);
        return filter(new BodySizeLimitFilter(properties.maxBodySize().toBytes(),
                java.util.Map.of(io.changeflow.adapter.web.api.GitLabHooksController.PATH, gitLabHooks.maxBodyBytes()),
                responses), Ordered.HIGHEST_PRECEDENCE + 3);
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

    /** Each request's database work within one overall budget (issue 34); none when no adapter keeps budgets. */
    @Bean
    FilterRegistrationBean<Filter> databaseBudgetFilter(ObjectProvider<DatabaseBudgets> budgets) {
        return filter(new DatabaseBudgetFilter(budgets.getIfAvailable(() -> DatabaseBudgets.NONE)), Ordered.HIGHEST_PRECEDENCE + 8);
    }

    /** Form bodies are parsed by the container, not through the body filter: same limit there. */
    @Bean
    WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> formBodyLimit(WebProperties properties) {
        var limit = (int) Math.min(Integer.MAX_VALUE, properties.maxBodySize().toBytes());
        return factory -> factory.addConnectorCustomizers(connector -> connector.setMaxPostSize(limit));
    }

    private static FilterRegistrationBean<Filter> filter(Filter filter, int order) {
        var registration = new FilterRegistrationBean<Filter>(filter);
        registration.setOrder(order);
        return registration;
    }
}
