package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.workflow.WorkflowPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The deadline keys are fail-safe: a missing, garbled, zero or negative value means the default. */
class DeadlinePropertiesTest {

    @Test
    void missingKeysMeanTheDefaults() {
        var none = new DeadlineProperties(null, null, null);

        assertThat(none.transientDeadlineOrDefault()).isEqualTo(Duration.ofHours(1));
        assertThat(none.pendingDeadlineOrDefault()).isEqualTo(Duration.ofHours(24));
        assertThat(none.retryEveryOrDefault()).isEqualTo(Duration.ofMinutes(1));
        var policy = none.applyTo(WorkflowPolicy.defaults());
        assertThat(policy.transientDeadline()).isEqualTo(Duration.ofHours(1));
        assertThat(policy.pendingGiveUpAfter()).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void garbledZeroOrNegativeValuesMeanTheDefaults() {
        for (var bad : new String[] {"", "  ", "soon", "1 hour", "0", "0s", "-5m", "PT-1H", "1h30", "\u0661h"}) {
            var properties = new DeadlineProperties(bad, new DeadlineProperties.Pipeline(bad),
                    new DeadlineProperties.TransientRetry(bad));

            assertThat(properties.transientDeadlineOrDefault()).as("transient-deadline=%s", bad).isEqualTo(Duration.ofHours(1));
            assertThat(properties.pendingDeadlineOrDefault()).as("pending-deadline=%s", bad).isEqualTo(Duration.ofHours(24));
            assertThat(properties.retryEveryOrDefault()).as("transient-retry.every=%s", bad).isEqualTo(Duration.ofMinutes(1));
        }
    }

    @Test
    void positiveValuesAreUsedInEveryNotation() {
        var properties = new DeadlineProperties(" 45m ", new DeadlineProperties.Pipeline("PT2H"),
                new DeadlineProperties.TransientRetry("30s"));

        var policy = properties.applyTo(WorkflowPolicy.defaults());

        assertThat(policy.transientDeadline()).isEqualTo(Duration.ofMinutes(45));
        assertThat(policy.pendingGiveUpAfter()).isEqualTo(Duration.ofHours(2));
        assertThat(properties.retryEveryOrDefault()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theOlderPendingKeyStillCountsWhenTheNewOneIsNotSet() {
        var older = WorkflowPolicy.defaults();
        var withOlderKey = new WorkflowPolicy(older.approvalBackoff(), older.pipelinePolling(), older.rebasePolling(),
                older.mergeabilityPolling(), older.pendingRecheck(), Duration.ofHours(6), older.transientRetry(),
                older.mergeRetries(), older.mergeRetryBackoff(), older.maxRebases(), older.maxRegenerations(),
                older.closeRetries());

        assertThat(new DeadlineProperties(null, null, null).applyTo(withOlderKey).pendingGiveUpAfter())
                .isEqualTo(Duration.ofHours(6));
        assertThat(new DeadlineProperties(null, new DeadlineProperties.Pipeline("garbled"), null).applyTo(withOlderKey)
                .pendingGiveUpAfter()).isEqualTo(Duration.ofHours(6));
    }
}
