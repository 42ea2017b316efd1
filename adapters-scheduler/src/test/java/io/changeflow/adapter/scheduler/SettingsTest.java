package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void defaultsSuitAWorkflowOfMinutesToHours() {
        var settings = SchedulerSettings.defaults();

        assertThat(settings.pollingInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.threads()).isEqualTo(10);
        assertThat(settings.heartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.deadExecutionTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.missedHeartbeatsLimit()).isEqualTo(6);
        assertThat(settings.shutdownMaxWait()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.retryBackoff().delayBefore(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.retryBackoff().delayBefore(10)).isEqualTo(Duration.ofMinutes(10));
        assertThat(settings.name()).isNotBlank();
        assertThat(new BacklogSettings(null).backlogCapacity()).isEqualTo(10_000);
    }

    @Test
    void fallsBackToTheDefaultForMissingZeroOrNegativeValues() {
        var settings = new SchedulerSettings(Duration.ZERO, -1, Duration.ofSeconds(-1), null, Duration.ZERO, null, null, " ");

        assertThat(settings).usingRecursiveComparison().ignoringFields("name").isEqualTo(SchedulerSettings.defaults());
        assertThat(settings.name()).isNotBlank();
        assertThat(new BacklogSettings(0).backlogCapacity()).isEqualTo(10_000);
    }

    @Test
    void refusesADeadExecutionTimeoutShorterThanFourHeartbeats() {
        assertThatThrownBy(() -> new SchedulerSettings(null, null, Duration.ofSeconds(10), Duration.ofSeconds(39),
                null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dead-execution-timeout");
    }

    @Test
    void roundsTheDeadExecutionTimeoutUpToWholeHeartbeats() {
        var settings = new SchedulerSettings(null, null, Duration.ofSeconds(10), Duration.ofSeconds(45), null, null, null, "n");

        assertThat(settings.missedHeartbeatsLimit()).isEqualTo(5);
        assertThat(settings.effectiveDeadExecutionTimeout()).isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void neverBacksOffLessAtTheMaximumThanAtTheStart() {
        var settings = new SchedulerSettings(null, null, null, null, null, Duration.ofMinutes(20), Duration.ofMinutes(1), "n");

        assertThat(settings.retryMaxDelay()).isEqualTo(Duration.ofMinutes(20));
    }

    @Test
    void refusesRecurringJobsWithUnusableNamesOrIntervals() {
        Runnable noop = () -> { };
        assertThatThrownBy(() -> new RecurringJob("Reconcile Deployments", Duration.ofMinutes(1), noop))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecurringJob("x".repeat(101), Duration.ofMinutes(1), noop))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecurringJob(WorkflowStepTask.NAME, Duration.ofMinutes(1), noop))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecurringJob("sweep", Duration.ZERO, noop))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new RecurringJob("reconcile-deployments", Duration.ofMinutes(1), noop).name())
                .isEqualTo("reconcile-deployments");
    }

    @Test
    void theShutdownWaitStaysInsideTheShutdownPhaseSoTheReleaseComesBeforeSpringGivesUpOnIt() {
        var settings = new SchedulerSettings(null, null, null, null, null, null, null, "n");

        assertThat(settings.shutdownWaitWithin(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.shutdownWaitWithin(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(8));
        assertThat(settings.shutdownWaitWithin(Duration.ofSeconds(3))).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings.shutdownWaitWithin(null)).isEqualTo(Duration.ofSeconds(15));
    }
}
