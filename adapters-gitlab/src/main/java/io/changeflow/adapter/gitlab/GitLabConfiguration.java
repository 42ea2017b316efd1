package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.application.port.out.TargetFiles;
import io.changeflow.application.settings.Settings;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The GitLab adapter: {@link MergeRequests} on gitlab4j-api with connect/read timeouts, a TimeLimiter and
 * a circuit breaker, the approval funnel ({@code approver.mode} read on every call through the
 * {@link DynamicConfig} bean) and the health indicator {@code gitlab}. Settings: {@code changeflow.gitlab.*}.
 *
 * <p>Nothing points at a GitLab by default: without {@code changeflow.gitlab.base-url} (or without the
 * author bot's token) every call fails at once with an {@code ExternalCallException} of kind NOT_CONFIGURED
 * and health {@code gitlab} is DOWN saying which setting is missing; without approval bots
 * {@code approvalAccounts()} is empty and the workflow merges nothing. Previews read GitLab through
 * {@link TargetFiles}, with a breaker, timeout and bulkhead of their own ({@code changeflow.gitlab.preview.*}).
 * The sandbox's defaults point everything at its GitLab simulator.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({GitLabProperties.class, GitLabPreviewProperties.class})
public class GitLabConfiguration {

    static final String BASE_URL = "changeflow.gitlab.base-url";
    static final String PREVIEW_BREAKER = "gitlab-preview";

    /**
     * With a Micrometer {@link Tracer} and {@link Propagator} (Boot's tracing), every GitLab call carries the
     * caller's trace context ({@code traceparent}); without, none.
     */
    @Bean
    GitLabBots gitLabBots(GitLabProperties properties, Environment environment, ObjectProvider<Tracer> tracer,
                          ObjectProvider<Propagator> propagator) {
        var traceHeaders = new TraceHeaders(tracer.getIfAvailable(() -> Tracer.NOOP),
                propagator.getIfAvailable(() -> Propagator.NOOP));
        return new GitLabBots(properties, baseUrl(properties, environment), traceHeaders,
                new GitLabRateLimitHeaders(properties.rateLimitReserveCalls(), Clock.systemUTC()));
    }

    @Bean
    GitLabCalls gitLabCalls(GitLabProperties properties, GitLabBots gitLabBots,
                            ObjectProvider<ClusterRateLimits> clusterRateLimits, ObjectProvider<CallMetrics> metrics,
                            ObjectProvider<MeterRegistry> meters) {
        return new GitLabCalls(breaker(GitLabCalls.SYSTEM, properties.circuitBreaker(), meters), properties.callTimeout(),
                Clock.systemUTC(), gitLabBots::notConfigured, properties.readRetries(), properties.readRetryBackoff(),
                budget(properties.callBudgetPerMinute(), clusterRateLimits.getIfAvailable()),
                metrics.getIfAvailable(() -> CallMetrics.NONE), gitLabBots.traceHeaders(), gitLabBots.rateLimitHeaders());
    }

    /**
     * The previews' reads: their own breaker ({@code gitlab-preview}), timeout and bulkhead, so hammering the preview
     * never opens the workflow's breaker (a bean of its own type, not a second {@link GitLabCalls}).
     */
    @Bean
    GitLabTargetFiles gitLabTargetFiles(GitLabPreviewProperties preview, GitLabBots gitLabBots,
                                        ObjectProvider<CallMetrics> metrics, ObjectProvider<MeterRegistry> meters) {
        var calls = new GitLabCalls(breaker(PREVIEW_BREAKER, preview.circuitBreaker(), meters), preview.callTimeout(),
                Clock.systemUTC(), gitLabBots::notConfigured, 0, Duration.ofMillis(1), GitLabBudget.UNLIMITED,
                metrics.getIfAvailable(() -> CallMetrics.NONE), gitLabBots.traceHeaders());
        return new GitLabTargetFiles(calls, gitLabBots, preview.maxConcurrent());
    }

    /** A breaker whose state is published on the meter registry, when there is one (resilience4j's binding). */
    private static CircuitBreaker breaker(String name, GitLabProperties.CircuitBreaker settings,
                                          ObjectProvider<MeterRegistry> meters) {
        var registry = CircuitBreakerRegistry.ofDefaults();
        var breaker = registry.circuitBreaker(name, CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.slidingWindowSize())
                .minimumNumberOfCalls(settings.minimumNumberOfCalls())
                .failureRateThreshold(settings.failureRateThreshold())
                .waitDurationInOpenState(settings.waitDurationInOpenState())
                .permittedNumberOfCallsInHalfOpenState(settings.permittedCallsInHalfOpenState())
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(GitLabCalls::countsAsFailure)
                .build());
        meters.ifAvailable(TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry)::bindTo);
        return breaker;
    }

    @Bean
    MergeRequests gitLabMergeRequests(GitLabProperties properties, GitLabBots gitLabBots, GitLabCalls gitLabCalls,
                                      DynamicConfig dynamicConfig) {
        var http = new GitLabHttp(properties, gitLabBots::baseUrl, gitLabBots.traceHeaders(), gitLabBots.rateLimitHeaders());
        var checkItems = new CheckItems(gitLabCalls, http, properties.checkItemsTtl(), Clock.systemUTC());
        var clientLibrary = new ClientLibraryApprover(gitLabCalls);
        var approval = new BotApproval(new Settings(dynamicConfig), gitLabBots,
                clientLibrary, new DirectHttpApprover(gitLabCalls, http, checkItems, clientLibrary));
        Supplier<String> authorToken = () -> properties.author().token();
        var trains = new GitLabMergeTrains(gitLabCalls, http, authorToken,
                new GitLabProjects(gitLabCalls, http, authorToken, properties.projectCacheTtl(), Clock.systemUTC()));
        return new GitLabMergeRequests(gitLabBots, gitLabCalls, approval, trains,
                new GitLabMergeAfter(gitLabCalls, http, () -> properties.author().token()));
    }

    /** The setup check's reads of each catalog project, through the workflow's calls (breaker, timeouts, budget). */
    @Bean
    ProjectSetup gitLabProjectSetup(GitLabProperties properties, GitLabBots gitLabBots, GitLabCalls gitLabCalls) {
        return new GitLabProjectSetup(properties, gitLabCalls,
                new GitLabHttp(properties, gitLabBots::baseUrl, gitLabBots.traceHeaders(), gitLabBots.rateLimitHeaders()));
    }

    /** Drift detection's blame of a grant file (a drift item's evidence), through the workflow's calls (issue 36). */
    @Bean
    LineOrigins gitLabLineOrigins(GitLabProperties properties, GitLabBots gitLabBots, GitLabCalls gitLabCalls) {
        return new GitLabLineOrigins(properties, gitLabCalls,
                new GitLabHttp(properties, gitLabBots::baseUrl, gitLabBots.traceHeaders(), gitLabBots.rateLimitHeaders()));
    }

    /** The workflow breaker's state and recent error rate, for the operations overview. */
    @Bean
    ExternalSystemHealth gitLabSystemHealth(GitLabCalls gitLabCalls) {
        return new GitLabSystemHealth(gitLabCalls);
    }

    /** Shown as {@code gitlab} in {@code /actuator/health}. */
    @Bean("gitlab")
    HealthIndicator gitlabHealthIndicator(GitLabCalls gitLabCalls, GitLabBots gitLabBots) {
        return new GitLabHealthIndicator(gitLabCalls, gitLabBots::baseUrl, gitLabBots::notConfigured);
    }

    /**
     * The shared call budget: unlimited when not configured (0); without a shared database
     * ({@link ClusterRateLimits}) it cannot be shared, so it is not enforced (logged).
     */
    private static GitLabBudget budget(int perMinute, ClusterRateLimits limits) {
        if (perMinute <= 0) {
            return GitLabBudget.UNLIMITED;
        }
        if (limits == null) {
            LoggerFactory.getLogger(GitLabConfiguration.class).warn("changeflow.gitlab.max-calls-per-minute={} is not "
                    + "enforced: no shared database (ClusterRateLimits) in this process", perMinute);
            return GitLabBudget.UNLIMITED;
        }
        return new GitLabBudget(limits, perMinute);
    }

    /**
     * The base URL as configured now: read from the environment on every use, so placeholders that only
     * resolve once the server runs (the sandbox points at {@code ${local.server.port}}) work; until they
     * resolve, the value bound at start.
     */
    private static Supplier<String> baseUrl(GitLabProperties properties, Environment environment) {
        return () -> {
            try {
                var raw = environment.getProperty(BASE_URL);
                return raw == null ? properties.baseUrl() : GitLabProperties.normalizeBaseUrl(raw);
            } catch (IllegalArgumentException unresolvable) {
                return properties.baseUrl();
            }
        };
    }
}
