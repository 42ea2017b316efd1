package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The deploy deadline's keys as the application reads them: fail-safe, never "no deadline" or "immediately". */
class DeployConfigurationTest {

    private static final Duration DEFAULT_DEADLINE = Duration.ofHours(2);
    private static final Duration DEFAULT_EVERY = Duration.ofMinutes(1);

    private static io.changeflow.application.deploy.DeployDeadline.Policy policy(MockEnvironment environment) {
        return new DeployConfiguration().deployDeadlinePolicy(environment);
    }

    @Test
    void missingKeysMeanTheDefaults() {
        var policy = policy(new MockEnvironment());
        assertThat(policy.deadline()).isEqualTo(DEFAULT_DEADLINE);
        assertThat(policy.every()).isEqualTo(DEFAULT_EVERY);
    }

    @Test
    void garbledZeroOrNegativeValuesMeanTheDefaultsAndNeverStopTheStart() {
        for (var bad : new String[] {"soon", "2 hours", "", "0", "0s", "-2h", "PT-1M", "PT0S", "1.5h"}) {
            var policy = policy(new MockEnvironment().withProperty(DeployConfiguration.DEADLINE, bad)
                    .withProperty(DeployConfiguration.EVERY, bad));
            assertThat(policy.deadline()).as("deadline '%s'", bad).isEqualTo(DEFAULT_DEADLINE);
            assertThat(policy.every()).as("every '%s'", bad).isEqualTo(DEFAULT_EVERY);
        }
    }

    @Test
    void readableValuesAreTakenUnderEitherSpellingOfTheKey() {
        var policy = policy(new MockEnvironment().withProperty("changeflow.workflow.deploy-deadline", "2m")
                .withProperty("changeflow.workflow.deployDeadlineEvery", "15s"));
        assertThat(policy.deadline()).isEqualTo(Duration.ofMinutes(2));
        assertThat(policy.every()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void theJobRunsAtTheConfiguredInterval() {
        var configuration = new DeployConfiguration();
        var policy = policy(new MockEnvironment().withProperty(DeployConfiguration.EVERY, "5s"));
        var job = configuration.deployDeadlineJob(null, policy);
        assertThat(job.name()).isEqualTo("deploy-deadline");
        assertThat(job.interval()).isEqualTo(Duration.ofSeconds(5));
    }
}
