package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.MergeListener;
import io.changeflow.sandbox.fault.Faults;
import java.time.Clock;
import java.time.Duration;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The GitLab simulator's beans: the in-memory {@link GitLabSimulator}, its REST v4 endpoints under
 * {@code /sim/gitlab/api/v4}, the test-control API under {@code /sim/gitlab/_control}, the merge request
 * pages its {@code web_url} fields point at ({@link GitLabWebController}) and fault injection.
 * Needs a {@link Faults} bean; tells every {@link MergeListener} bean about each merge, in merge order.
 * Settings: {@code sandbox.gitlab.*} ({@link GitLabSimulatorProperties}, {@link GitLabBehaviourProperties},
 * {@link GitLabProjectDefaults}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({GitLabSimulatorProperties.class, GitLabBehaviourProperties.class, GitLabProjectDefaults.class})
public class GitLabSimulatorConfiguration {

    @Bean
    GitLabSimulator gitLabSimulator(GitLabSimulatorProperties properties, GitLabBehaviourProperties behaviour,
                                    GitLabProjectDefaults projectDefaults, ObjectProvider<MergeListener> listeners,
                                    Environment environment) {
        // Resolved at merge time, so a listener may itself depend on the simulator without a cycle.
        MergeListener notifyAll = (project, iid, description) ->
                listeners.orderedStream().forEach(listener -> listener.merged(project, iid, description));
        var simulator = new GitLabSimulator(properties, Clock.systemUTC(), notifyAll, () -> serverWebUrl(environment));
        simulator.apply(behaviour);
        simulator.apply(projectDefaults);
        return simulator;
    }

    /**
     * Where this server's simulator pages are, {@code http://localhost:<port><context path>/sim/gitlab}: the
     * port the server actually listens on ({@code local.server.port}, known once it runs; a random port in
     * tests), else {@code server.port}. Read on every use, so {@code web_url} fields follow the running server.
     */
    static String serverWebUrl(Environment environment) {
        var base = environment.resolvePlaceholders(
                "http://localhost:${local.server.port:${server.port:8080}}${server.servlet.context-path:}");
        return GitLabSimulatorProperties.stripSlash(base) + GitLabWebController.BASE;
    }

    /**
     * The simulator's project hooks send their events (issue 33 item 3) when {@code sandbox.gitlab.webhooks.enabled}:
     * every project gets a hook to {@code sandbox.gitlab.webhooks.url} (blank: this process's {@code /callbacks/gitlab},
     * its port resolved once the server runs) with {@code sandbox.gitlab.webhooks.token}; faults {@code .lose-rate},
     * {@code .duplicate-rate}, {@code .delay}.
     */
    @Bean(destroyMethod = "close")
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(name = "sandbox.gitlab.webhooks.enabled",
            havingValue = "true")
    GitLabWebhookSender gitLabWebhookSender(GitLabSimulator gitLabSimulator, Environment environment) {
        var url = environment.getProperty("sandbox.gitlab.webhooks.url", "");
        gitLabSimulator.hookEveryProject(url.isBlank() ? OWN_HOOK_URL : url,
                environment.getProperty("sandbox.gitlab.webhooks.token", ""), environment::resolvePlaceholders);
        var faults = new GitLabWebhookSender.Faults(
                environment.getProperty("sandbox.gitlab.webhooks.lose-rate", Double.class, 0.0),
                environment.getProperty("sandbox.gitlab.webhooks.duplicate-rate", Double.class, 0.0),
                rateLimitPeriod(environment.getProperty("sandbox.gitlab.webhooks.delay")));
        return new GitLabWebhookSender(gitLabSimulator, faults,
                rateLimitPeriod(environment.getProperty("sandbox.gitlab.webhooks.tick")));
    }

    /** This process's GitLab webhook endpoint, resolved when used. */
    static final String OWN_HOOK_URL = "http://localhost:${local.server.port:${server.port:8080}}"
            + "${server.servlet.context-path:}/callbacks/gitlab";

    @Bean
    GitLabWebController gitLabWebController(GitLabSimulator gitLabSimulator) {
        return new GitLabWebController(gitLabSimulator);
    }

    @Bean
    GitLabApiController gitLabApiController(GitLabSimulator gitLabSimulator) {
        return new GitLabApiController(gitLabSimulator);
    }

    @Bean
    GitLabControlController gitLabControlController(GitLabSimulator gitLabSimulator) {
        return new GitLabControlController(gitLabSimulator);
    }

    @Bean
    GitLabMergeChecksControlController gitLabMergeChecksControlController(GitLabSimulator gitLabSimulator) {
        return new GitLabMergeChecksControlController(gitLabSimulator);
    }

    /**
     * GitLab's authenticated API rate limit ({@code sandbox.gitlab.rate-limit-per-minute}; off by default), counted
     * over {@code sandbox.gitlab.rate-limit-period} (default 1m; garbled, zero or negative: 1m).
     */
    @Bean
    GitLabRateLimit gitLabRateLimit(GitLabBehaviourProperties behaviour, Environment environment) {
        var limit = new GitLabRateLimit(Clock.systemUTC(), behaviour.rateLimit());
        limit.setPeriod(rateLimitPeriod(environment.getProperty("sandbox.gitlab.rate-limit-period")));
        return limit;
    }

    /** A setting as a duration ({@code 6s}, {@code PT6S}); null when missing or garbled (then the default). */
    static Duration rateLimitPeriod(String text) {
        try {
            return text == null || text.isBlank() ? null : DurationStyle.detectAndParse(text.strip());
        } catch (IllegalArgumentException garbled) {
            return null;
        }
    }

    @Bean
    GitLabRateLimitControlController gitLabRateLimitControlController(GitLabRateLimit gitLabRateLimit,
                                                                      GitLabSimulator gitLabSimulator) {
        return new GitLabRateLimitControlController(gitLabRateLimit, gitLabSimulator);
    }

    @Bean
    GitLabRateLimitFilter gitLabRateLimitFilter(GitLabRateLimit gitLabRateLimit) {
        return new GitLabRateLimitFilter(gitLabRateLimit);
    }

    @Bean
    GitLabFaultFilter gitLabFaultFilter(Faults faults) {
        return new GitLabFaultFilter(faults);
    }

    /**
     * GitLab clients address projects and files by URL-encoded path ({@code platform%2Faccess-config});
     * Tomcat rejects an encoded slash unless told to pass it through to the application.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.apache.catalina.connector.Connector")
    static class EncodedSlashes {

        @Bean
        TomcatConnectorCustomizer gitLabEncodedSlashes() {
            return connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
        }
    }
}
