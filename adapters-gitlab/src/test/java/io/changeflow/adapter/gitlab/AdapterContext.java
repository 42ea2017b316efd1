package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.MergeRequests;
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
 * {@link DynamicConfig} bean, pointed at the simulator, with test-specific {@code changeflow.gitlab.*}.
 */
final class AdapterContext implements AutoCloseable {

    @SpringBootConfiguration
    @Import(GitLabConfiguration.class)
    static class App {

        @Bean
        MutableDynamicConfig dynamicConfig() {
            return new MutableDynamicConfig();
        }
    }

    private final ConfigurableApplicationContext context;

    private AdapterContext(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** An adapter against {@code baseUrl}; {@code properties} are relative to {@code changeflow.gitlab.}. */
    static AdapterContext start(String baseUrl, Map<String, String> properties) {
        var all = new LinkedHashMap<String, String>();
        all.put("changeflow.gitlab.base-url", baseUrl);
        all.put("changeflow.gitlab.connect-timeout", "1s");
        all.put("changeflow.gitlab.read-timeout", "3s");
        all.put("changeflow.gitlab.call-timeout", "5s");
        properties.forEach((k, v) -> all.put("changeflow.gitlab." + k, v));
        var args = new ArrayList<String>();
        all.forEach((k, v) -> args.add(k + "=" + v));
        var context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off")
                .properties(args.toArray(String[]::new))
                .run();
        return new AdapterContext(context);
    }

    static AdapterContext against(SimulatorServer server) {
        return start(server.baseUrl(), Map.of());
    }

    MergeRequests mergeRequests() {
        return context.getBean(MergeRequests.class);
    }

    MutableDynamicConfig dynamicConfig() {
        return context.getBean(MutableDynamicConfig.class);
    }

    HealthIndicator health() {
        return context.getBean("gitlab", HealthIndicator.class);
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
