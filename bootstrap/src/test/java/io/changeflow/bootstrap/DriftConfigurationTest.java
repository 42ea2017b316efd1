package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.drift.DetectDrift;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The drift keys as the application reads them (issue 36): a garbled interval is 5 min, never "off". */
class DriftConfigurationTest {

    private static DetectDrift.Policy policy(MockEnvironment environment) {
        return new DriftConfiguration().detectDriftPolicy(environment);
    }

    @Test
    void missingKeysMeanFiveMinutesAndThirtySecondsToSettle() {
        var policy = policy(new MockEnvironment());
        assertThat(policy.every()).isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.settle()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aGarbledZeroOrNegativeIntervalIsItsDefaultNeverOff() {
        for (var bad : new String[] {"off", "never", "false", "", "0", "0s", "-5m", "PT-1M", "5 minutes"}) {
            var policy = policy(new MockEnvironment().withProperty(DriftConfiguration.INTERVAL, bad)
                    .withProperty(DriftConfiguration.SETTLE, bad.equals("0") || bad.equals("0s") ? "-1s" : bad));
            assertThat(policy.every()).as("interval '%s'", bad).isEqualTo(Duration.ofMinutes(5));
            assertThat(policy.settle()).as("settle '%s'", bad).isEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void readableValuesAreTakenAndTheJobRunsAtTheInterval() {
        var policy = policy(new MockEnvironment().withProperty("changeflow.drift.interval", "30s")
                .withProperty("changeflow.drift.settle", "10s"));
        assertThat(policy.every()).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.settle()).isEqualTo(Duration.ofSeconds(10));
        var job = new DriftConfiguration().detectDriftJob(null, policy);
        assertThat(job.name()).isEqualTo("detect-drift");
        assertThat(job.interval()).isEqualTo(Duration.ofSeconds(30));
    }
}
