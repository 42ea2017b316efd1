package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.testsupport.TestTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The adapter as the application wires it: {@link GitLabConfiguration} in a Spring context with a
 * {@link DynamicConfig} bean, pointed at the simulator and its bots, with test-specific {@code changeflow.gitlab.*}.
 */
final class AdapterContext implements AutoCloseable {

    @SpringBootConfiguration
    @Import(GitLabConfiguration.class)
    static class App {

        @Bean
        MutableDynamicConfig dynamicConfig() {
            return new MutableDynamicConfig();
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        /** The calls the adapter reports, as timers {@value #CALLS} on the registry. */
        @Bean
        CallMetrics callMetrics(SimpleMeterRegistry registry) {
            return (system, operation, outcome, took) -> registry.timer(CALLS, "system", system, "operation", operation,
                    "outcome", outcome.tag()).record(took);
        }
    }

    static final String CALLS = "test.calls";

    private final ConfigurableApplicationContext context;

    private AdapterContext(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** The simulator's author bot, as {@code changeflow.gitlab.*} (the adapter has no default bots). */
    static final Map<String, String> SIMULATOR_AUTHOR = Map.of(
            "author.account", "changeflow-bot", "author.token", "author-bot-token");
    /** The simulator's approval bots, as {@code changeflow.gitlab.*}. */
    static final Map<String, String> SIMULATOR_APPROVERS = Map.of(
            "approvers[0].account", "approval-bot-1", "approvers[0].token", "approval-bot-1-token",
            "approvers[1].account", "approval-bot-2", "approvers[1].token", "approval-bot-2-token");

    /**
     * An adapter against {@code baseUrl}; {@code properties} are relative to {@code changeflow.gitlab.}. The
     * simulator's bots are configured unless {@code properties} name an author or approvers of their own.
     */
    static AdapterContext start(String baseUrl, Map<String, String> properties) {
        var bots = new LinkedHashMap<String, String>();
        if (properties.keySet().stream().noneMatch(k -> k.startsWith("author."))) {
            bots.putAll(SIMULATOR_AUTHOR);
        }
        if (properties.keySet().stream().noneMatch(k -> k.startsWith("approvers"))) {
            bots.putAll(SIMULATOR_APPROVERS);
        }
        bots.putAll(properties);
        return startExactly(baseUrl, bots);
    }

    /**
     * An adapter with exactly {@code properties} (relative to {@code changeflow.gitlab.}), the test timeouts and no cache
     * of project reads unless {@code properties} set {@code project-cache-ttl}.
     */
    static AdapterContext startExactly(String baseUrl, Map<String, String> properties) {
        return startExactly(baseUrl, properties, null);
    }

    /** An adapter against {@code baseUrl} whose calls are traced by {@code tracing}, as Boot's tracing wires it. */
    static AdapterContext traced(String baseUrl, TestTracing tracing) {
        var bots = new LinkedHashMap<String, String>(SIMULATOR_AUTHOR);
        bots.putAll(SIMULATOR_APPROVERS);
        return startExactly(baseUrl, bots, tracing);
    }

    private static AdapterContext startExactly(String baseUrl, Map<String, String> properties, TestTracing tracing) {
        var all = new LinkedHashMap<String, String>();
        if (baseUrl != null) {
            all.put("changeflow.gitlab.base-url", baseUrl);
        }
        all.put("changeflow.gitlab.connect-timeout", "1s");
        all.put("changeflow.gitlab.read-timeout", "3s");
        all.put("changeflow.gitlab.call-timeout", "5s");
        // issue 33: a project read is a call in these tests (they use it as the plain read); GitLabRequestCallsTest
        // turns the cache on
        all.put("changeflow.gitlab.project-cache-ttl", "0s");
        properties.forEach((k, v) -> all.put("changeflow.gitlab." + k, v));
        var args = new ArrayList<String>();
        all.forEach((k, v) -> args.add(k + "=" + v));
        var context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off")
                .properties(args.toArray(String[]::new))
                .initializers(created -> {
                    if (tracing != null) {
                        created.getBeanFactory().registerSingleton("tracer", tracing.tracer());
                        created.getBeanFactory().registerSingleton("propagator", tracing.propagator());
                    }
                })
                .run();
        return new AdapterContext(context);
    }

    static AdapterContext against(SimulatorServer server) {
        return start(server.baseUrl(), Map.of());
    }

    MergeRequests mergeRequests() {
        return context.getBean(MergeRequests.class);
    }

    LineOrigins lineOrigins() {
        return context.getBean(LineOrigins.class);
    }

    ProjectSetup projectSetup() {
        return context.getBean(ProjectSetup.class);
    }

    MutableDynamicConfig dynamicConfig() {
        return context.getBean(MutableDynamicConfig.class);
    }

    HealthIndicator health() {
        return context.getBean("gitlab", HealthIndicator.class);
    }

    SimpleMeterRegistry meters() {
        return context.getBean(SimpleMeterRegistry.class);
    }

    GitLabCalls calls() {
        return context.getBean(GitLabCalls.class);
    }

    ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
    }
}
