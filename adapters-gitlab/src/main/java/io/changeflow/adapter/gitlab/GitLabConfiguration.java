package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.settings.Settings;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.util.function.Supplier;
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
 * {@code approvalAccounts()} is empty and the workflow merges nothing. The sandbox's defaults point
 * everything at its GitLab simulator.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GitLabProperties.class)
public class GitLabConfiguration {

    static final String BASE_URL = "changeflow.gitlab.base-url";

    @Bean
    GitLabBots gitLabBots(GitLabProperties properties, Environment environment) {
        return new GitLabBots(properties, baseUrl(properties, environment));
    }

    @Bean
    GitLabCalls gitLabCalls(GitLabProperties properties, GitLabBots gitLabBots) {
        var settings = properties.circuitBreaker();
        var breaker = CircuitBreaker.of(GitLabCalls.SYSTEM, CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.slidingWindowSize())
                .minimumNumberOfCalls(settings.minimumNumberOfCalls())
                .failureRateThreshold(settings.failureRateThreshold())
                .waitDurationInOpenState(settings.waitDurationInOpenState())
                .permittedNumberOfCallsInHalfOpenState(settings.permittedCallsInHalfOpenState())
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(GitLabCalls::countsAsFailure)
                .build());
        return new GitLabCalls(breaker, properties.callTimeout(), Clock.systemUTC(), gitLabBots::notConfigured,
                properties.readRetries(), properties.readRetryBackoff());
    }

    @Bean
    MergeRequests gitLabMergeRequests(GitLabProperties properties, GitLabBots gitLabBots, GitLabCalls gitLabCalls,
                                      DynamicConfig dynamicConfig) {
        var http = new GitLabHttp(properties, gitLabBots::baseUrl);
        var checkItems = new CheckItems(gitLabCalls, http, properties.checkItemsTtl(), Clock.systemUTC());
        var approval = new BotApproval(new Settings(dynamicConfig), gitLabBots,
                new ClientLibraryApprover(gitLabCalls), new DirectHttpApprover(gitLabCalls, http, checkItems));
        return new GitLabMergeRequests(gitLabBots, gitLabCalls, approval);
    }

    /** Shown as {@code gitlab} in {@code /actuator/health}. */
    @Bean("gitlab")
    HealthIndicator gitlabHealthIndicator(GitLabCalls gitLabCalls, GitLabBots gitLabBots) {
        return new GitLabHealthIndicator(gitLabCalls, gitLabBots::baseUrl, gitLabBots::notConfigured);
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
