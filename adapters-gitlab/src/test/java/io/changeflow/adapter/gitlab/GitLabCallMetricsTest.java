package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.micrometer.core.instrument.Meter;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an operator alerts on, from the adapter wired as the application wires it: every try of a GitLab call is
 * reported ({@code CallMetrics}) by system, operation (a name from the adapter's code) and outcome, and both
 * breakers publish their state on the registry.
 */
class GitLabCallMetricsTest {

    private static final SimulatorServer server = SimulatorServer.get();

    @AfterEach
    void noFaults() {
        server.faults().clear();
    }

    private static long timed(AdapterContext adapter, String operation, String outcome) {
        var timer = adapter.meters().find(AdapterContext.CALLS)
                .tags("system", "gitlab", "operation", operation, "outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void everyTryIsTimedByOperationAndOutcome() {
        var project = server.newProject("platform/metrics", Map.of("grants/db.txt", "alice\n"));
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("read-retries", "1",
                "read-retry-backoff", "10ms", "circuit-breaker.minimum-number-of-calls", "100"))) {
            var gitlab = adapter.mergeRequests();
            gitlab.defaultBranch(project);
            assertThatThrownBy(() -> gitlab.defaultBranch("platform/no-such-project")).isInstanceOf(ExternalCallException.class);
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));
            assertThatThrownBy(() -> gitlab.defaultBranch(project)).isInstanceOf(ExternalCallException.class);

            assertThat(timed(adapter, "defaultBranch", "success")).isEqualTo(1);
            assertThat(timed(adapter, "defaultBranch", "client_error")).isEqualTo(1);
            assertThat(timed(adapter, "defaultBranch", "server_error")).as("the try and its retry").isEqualTo(2);
        }
    }

    @Test
    void bothBreakersPublishTheirState() {
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of())) {
            var states = adapter.meters().find("resilience4j.circuitbreaker.state").gauges();
            assertThat(states).extracting(g -> g.getId().getTag("name")).contains("gitlab", "gitlab-preview");
            assertThat(states).filteredOn(g -> "closed".equals(g.getId().getTag("state")))
                    .extracting(g -> g.getId().getTag("name") + "=" + g.value()).contains("gitlab=1.0", "gitlab-preview=1.0");
            assertThat(adapter.meters().getMeters()).extracting(Meter::getId).extracting(Meter.Id::getName)
                    .contains("resilience4j.circuitbreaker.not.permitted.calls");
        }
    }

    @Test
    void noCallsAreMadeWithAnOpenBreakerAndThatIsCountedAsNotCalled() {
        var project = server.newProject("platform/metrics", Map.of("grants/db.txt", "alice\n"));
        try (var adapter = AdapterContext.start(server.baseUrl(), Map.of("read-retries", "0",
                "circuit-breaker.minimum-number-of-calls", "2", "circuit-breaker.sliding-window-size", "2",
                "circuit-breaker.wait-duration-in-open-state", "1m"))) {
            var gitlab = adapter.mergeRequests();
            server.faults().configure(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));
            for (var i = 0; i < 3; i++) {
                assertThatThrownBy(() -> gitlab.defaultBranch(project)).isInstanceOf(ExternalCallException.class);
            }
            assertThat(timed(adapter, "defaultBranch", "server_error")).isEqualTo(2);
            assertThat(timed(adapter, "defaultBranch", "not_called")).isEqualTo(1);
            var open = adapter.meters().find("resilience4j.circuitbreaker.state").tags("name", "gitlab", "state", "open")
                    .gauge();
            assertThat(open).isNotNull();
            assertThat(open.value()).isEqualTo(1.0);
        }
    }
}
