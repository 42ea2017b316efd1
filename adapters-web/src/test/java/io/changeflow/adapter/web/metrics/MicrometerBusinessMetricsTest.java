package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.changeflow.adapter.web.FaultyMeterRegistry;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MicrometerBusinessMetricsTest {

    private final FaultyMeterRegistry registry = new FaultyMeterRegistry();
    private final MicrometerBusinessMetrics metrics = new MicrometerBusinessMetrics(new SafeMeters(registry));

    @Test
    void countsOutcomesTaggedByTargetStepAndBatchOutcome() {
        metrics.submitted("db-prod-readonly");
        metrics.submitted("db-prod-readonly");
        metrics.validated("wiki-editors");
        metrics.failed(StepStatus.CREATE_PIPELINE_FAILED);
        metrics.batchCompleted(4, Duration.ofSeconds(90), true);
        metrics.batchCompleted(2, Duration.ofSeconds(30), false);

        assertThat(registry.count(MicrometerBusinessMetrics.SUBMITTED, "target", "db-prod-readonly")).isEqualTo(2);
        assertThat(registry.count(MicrometerBusinessMetrics.VALIDATED, "target", "wiki-editors")).isEqualTo(1);
        assertThat(registry.count(MicrometerBusinessMetrics.FAILED, "step", "CREATE_PIPELINE_FAILED")).isEqualTo(1);
        assertThat(registry.timed(MicrometerBusinessMetrics.BATCH_DURATION, "outcome", "merged")).isEqualTo(1);
        assertThat(registry.find(MicrometerBusinessMetrics.BATCH_SIZE).tag("outcome", "not_merged").summary().totalAmount())
                .isEqualTo(2);
    }

    @Test
    void tagValuesAreTruncatedAndInvalidOnesSkipTheEmission() {
        metrics.submitted("t".repeat(300));
        metrics.submitted(" ");
        metrics.submitted(null);
        metrics.validated("bad\u0000target");
        metrics.failed(null);
        metrics.batchCompleted(1, null, true);

        assertThat(registry.find(MicrometerBusinessMetrics.SUBMITTED).counters()).singleElement()
                .satisfies(c -> assertThat(c.getId().getTag("target")).hasSize(SafeMeters.MAX_TAG_LENGTH));
        assertThat(registry.find(MicrometerBusinessMetrics.VALIDATED).counters()).isEmpty();
        assertThat(registry.find(MicrometerBusinessMetrics.FAILED).counters()).isEmpty();
    }

    @Test
    void aRegistryThrowingOnEveryCallNeverReachesTheBusinessCode() {
        registry.faulty = true;
        assertThatCode(() -> {
            metrics.submitted("db-prod-readonly");
            metrics.validated("db-prod-readonly");
            metrics.failed(StepStatus.HANDLE_MERGE_FAILED);
            metrics.batchCompleted(3, Duration.ofSeconds(1), false);
        }).doesNotThrowAnyException();
        registry.faulty = false;
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void countsNotificationsByChannelAndOutcomeWithHelpText() {
        metrics.notificationSent("MAIL");
        metrics.notificationSent("MAIL");
        metrics.notificationFailed("WEBHOOK");

        assertThat(registry.find(MicrometerBusinessMetrics.NOTIFICATIONS).tag("channel", "MAIL").tag("outcome", "sent")
                .counter().count()).isEqualTo(2);
        assertThat(registry.find(MicrometerBusinessMetrics.NOTIFICATIONS).tag("channel", "WEBHOOK").tag("outcome", "failed")
                .counter().count()).isEqualTo(1);
        assertThat(MeterHelp.of(MicrometerBusinessMetrics.NOTIFICATIONS)).isNotBlank();
    }
}
