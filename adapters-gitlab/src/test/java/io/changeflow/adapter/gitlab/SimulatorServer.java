package io.changeflow.adapter.gitlab;

import io.changeflow.sandbox.MergeListener;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.gitlab.GitLabRateLimit;
import io.changeflow.sandbox.gitlab.GitLabSimulator;
import io.changeflow.sandbox.gitlab.GitLabSimulatorConfiguration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.gitlab4j.api.GitLabApi;
import org.gitlab4j.api.GitLabApiException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The sandbox's GitLab simulator in a minimal Spring Boot web application on a random port, started once
 * per test JVM and shared by the adapter tests (each test works in its own project).
 */
final class SimulatorServer {

    /** A merge seen by the simulator's {@link MergeListener}. */
    record Merge(String project, long iid, String description) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(GitLabSimulatorConfiguration.class)
    static class App {

        @Bean
        Faults faults() {
            return new Faults();
        }

        @Bean
        MergeListener recordingMergeListener() {
            return (project, iid, description) -> MERGES.add(new Merge(project, iid, description));
        }
    }

    private static final List<Merge> MERGES = new CopyOnWriteArrayList<>();
    private static SimulatorServer instance;

    private final ConfigurableApplicationContext context;
    private final int port;

    private SimulatorServer(ConfigurableApplicationContext context) {
        this.context = context;
        this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    static synchronized SimulatorServer get() {
        if (instance == null) {
            var context = new SpringApplicationBuilder(App.class)
                    .properties("server.port=0", "spring.main.banner-mode=off",
                            "sandbox.gitlab.checking-duration=300ms",
                            "sandbox.gitlab.pipeline-duration=600ms",
                            "sandbox.gitlab.rebase-duration=200ms")
                    .run();
            instance = new SimulatorServer(context);
            instance.warmUp();
            Runtime.getRuntime().addShutdownHook(new Thread(context::close));
        }
        return instance;
    }

    /**
     * One client-library call before any test: the first call of a JVM loads Jersey and gitlab4j (seconds on a
     * busy machine), which the first test's call timeout would otherwise have to absorb.
     */
    private void warmUp() {
        try (var api = new GitLabApi(baseUrl(), gitlab().author().token())) {
            api.getUserApi().getCurrentUser();
        } catch (GitLabApiException e) {
            throw new IllegalStateException("the simulator does not answer", e);
        }
    }

    /** What {@code changeflow.gitlab.base-url} must be to talk to the simulator. */
    String baseUrl() {
        return "http://localhost:" + port + "/sim/gitlab";
    }

    GitLabSimulator gitlab() {
        return context.getBean(GitLabSimulator.class);
    }

    GitLabRateLimit rateLimit() {
        return context.getBean(GitLabRateLimit.class);
    }

    Faults faults() {
        return context.getBean(Faults.class);
    }

    /** Creates a project named {@code prefix} plus a random suffix, with {@code files} on main; returns its path. */
    String newProject(String prefix, Map<String, String> files) {
        var project = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        gitlab().ensureProject(project, files);
        return project;
    }

    List<Merge> merges() {
        return List.copyOf(MERGES);
    }
}
