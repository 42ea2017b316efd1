package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
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
    void thePortNamesTheConfiguredApprovalBotsInTheirOrderEachOnce() {
        var server = SimulatorServer.get();
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of(
                "approvers[0].account", "bot-b", "approvers[0].token", "token-b",
                "approvers[1].account", "bot-a", "approvers[1].token", "token-a",
                "approvers[2].account", "bot-b", "approvers[2].token", "token-b-again"))) {
            assertThat(adapter.mergeRequests().approvalAccounts()).containsExactly("bot-b", "bot-a");
        }
        try (var withoutApprovers = AdapterContext.startExactly(server.baseUrl(), AdapterContext.SIMULATOR_AUTHOR)) {
            assertThat(withoutApprovers.mergeRequests().approvalAccounts()).isEmpty();
            assertThatThrownBy(() -> withoutApprovers.mergeRequests().approve("platform/access-config", 1, "approval-bot-1"))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void withoutABaseUrlEveryCallFailsAtOnceAsNotConfiguredAndHealthIsDownSayingWhichSetting() {
        var bots = new LinkedHashMap<String, String>(AdapterContext.SIMULATOR_AUTHOR);
        bots.putAll(AdapterContext.SIMULATOR_APPROVERS);
        try (var adapter = AdapterContext.startExactly(null, bots)) {
            var gitlab = adapter.mergeRequests();

            assertThatThrownBy(() -> gitlab.defaultBranch("platform/access-config"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.NOT_CONFIGURED);
                        assertThat(e.isTransient()).isFalse();
                        assertThat(e.getMessage()).contains("changeflow.gitlab.base-url is not set")
                                .doesNotContain("author-bot-token");
                    });
            assertThatThrownBy(() -> gitlab.approve("platform/access-config", 1, "approval-bot-1"))
                    .isInstanceOfSatisfying(ExternalCallException.class,
                            e -> assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.NOT_CONFIGURED));
            assertThat(adapter.calls().breaker().getMetrics().getNumberOfBufferedCalls()).isZero();

            var health = adapter.health().health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("reason", "changeflow.gitlab.base-url is not set")
                    .containsEntry("baseUrl", "(not set)");
        }
    }

    @Test
    void withoutTheAuthorTokenEveryCallFailsAtOnceAndHealthIsDownSayingWhichSetting() {
        var server = SimulatorServer.get();
        try (var adapter = AdapterContext.startExactly(server.baseUrl(), AdapterContext.SIMULATOR_APPROVERS)) {
            assertThatThrownBy(() -> adapter.mergeRequests().defaultBranch("platform/access-config"))
                    .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.NOT_CONFIGURED);
                        assertThat(e.getMessage()).contains("changeflow.gitlab.author.token is not set");
                    });
            var health = adapter.health().health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("reason", "changeflow.gitlab.author.token is not set")
                    .containsEntry("baseUrl", server.baseUrl());
        }
    }

    @Test
    void withNoGitLabSettingsAtAllNothingIsCalledAndNoApprovalBotIsNamed() {
        try (var adapter = AdapterContext.startExactly(null, Map.of())) {
            assertThat(adapter.mergeRequests().approvalAccounts()).isEmpty();
            assertThatThrownBy(() -> adapter.mergeRequests().latestPipeline("platform/access-config", 1))
                    .isInstanceOfSatisfying(ExternalCallException.class,
                            e -> assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.NOT_CONFIGURED));
            assertThat(adapter.health().health().getStatus()).isEqualTo(Status.DOWN);
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
