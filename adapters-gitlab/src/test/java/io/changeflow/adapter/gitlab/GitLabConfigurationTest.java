package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.env.MapPropertySource;

class GitLabConfigurationTest {

    @Test
    void wiresThePortAndAHealthIndicatorNamedGitlab() {
        try (var adapter = AdapterContext.against(SimulatorServer.get())) {
            assertThat(adapter.context().getBeansOfType(MergeRequests.class)).hasSize(1);
            assertThat(adapter.context().getBeansOfType(HealthIndicator.class)).containsOnlyKeys("gitlab");
        }
    }

    @Test
    void readsTheBaseUrlOnEveryCallSoAPortKnownOnlyLaterIsUsed() {
        var server = SimulatorServer.get();
        var port = server.baseUrl().replaceAll(".*:(\\d+)/.*", "$1");
        try (var adapter = AdapterContext.start("http://localhost:${test.simulator.port}/sim/gitlab", Map.of())) {
            var gitlab = adapter.mergeRequests();
            assertThatThrownBy(() -> gitlab.defaultBranch("platform/access-config"))
                    .isInstanceOf(ExternalCallException.class);

            adapter.context().getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("late", Map.of("test.simulator.port", port)));

            assertThat(gitlab.defaultBranch("platform/access-config")).isEqualTo("main");
            assertThat(adapter.health().health().getDetails().get("baseUrl")).isEqualTo(server.baseUrl());
        }
    }
}
