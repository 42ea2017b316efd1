package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.changeflow.adapter.web.FaultyMeterRegistry;
import io.changeflow.application.port.out.CallOutcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MicrometerCallMetricsTest {

    private final FaultyMeterRegistry registry = new FaultyMeterRegistry();
    private final MicrometerCallMetrics metrics = new MicrometerCallMetrics(new SafeMeters(registry));

    @Test
    void timesEachCallBySystemOperationAndOutcomeWithHelpText() {
        metrics.called("gitlab", "merge", CallOutcome.SUCCESS, Duration.ofMillis(120));
        metrics.called("gitlab", "merge", CallOutcome.SERVER_ERROR, Duration.ofMillis(30));
        metrics.called("approval", "submit", CallOutcome.RATE_LIMITED, Duration.ofMillis(5));

        assertThat(registry.timed(MicrometerCallMetrics.NAME, "system", "gitlab", "operation", "merge", "outcome", "success"))
                .isEqualTo(1);
        assertThat(registry.timed(MicrometerCallMetrics.NAME, "system", "gitlab", "operation", "merge", "outcome", "server_error"))
                .isEqualTo(1);
        assertThat(registry.timed(MicrometerCallMetrics.NAME, "system", "approval", "operation", "submit", "outcome", "rate_limited"))
                .isEqualTo(1);
        assertThat(registry.find(MicrometerCallMetrics.NAME).timers()).allSatisfy(timer ->
                assertThat(timer.getId().getDescription()).isNotBlank());
    }

    @Test
    void neverThrowsIntoTheCall() {
        registry.faulty = true;
        assertThatCode(() -> metrics.called("gitlab", "merge", CallOutcome.SUCCESS, Duration.ofMillis(1))).doesNotThrowAnyException();
        assertThatCode(() -> metrics.called(null, "merge", null, Duration.ofMillis(1))).doesNotThrowAnyException();
        registry.faulty = false;
        assertThat(registry.find(MicrometerCallMetrics.NAME).timers()).isEmpty();
    }
}
