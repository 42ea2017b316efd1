package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.grant.ExpireGrants;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** The expiry keys as the application reads them (issue 18): a garbled grace is 0, never "never expire". */
class GrantsConfigurationTest {

    private static ExpireGrants.Policy policy(MockEnvironment environment) {
        return new GrantsConfiguration().expireGrantsPolicy(environment);
    }

    @Test
    void missingKeysMeanNoGraceAndAMinute() {
        var policy = policy(new MockEnvironment());
        assertThat(policy.grace()).isZero();
        assertThat(policy.every()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aGarbledOrNegativeGraceIsZeroAndABadIntervalItsDefault() {
        for (var bad : new String[] {"soon", "2 hours", "", "-2h", "PT-1M", "1.5h", "never"}) {
            var policy = policy(new MockEnvironment().withProperty(GrantsConfiguration.GRACE, bad)
                    .withProperty(GrantsConfiguration.EVERY, bad));
            assertThat(policy.grace()).as("grace '%s'", bad).isZero();
            assertThat(policy.every()).as("every '%s'", bad).isEqualTo(Duration.ofMinutes(1));
        }
        assertThat(policy(new MockEnvironment().withProperty(GrantsConfiguration.EVERY, "0s")).every())
                .isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void readableValuesAreTakenAndTheJobRunsAtTheInterval() {
        var policy = policy(new MockEnvironment().withProperty("changeflow.grants.expiry-grace", "10m")
                .withProperty("changeflow.grants.expiryEvery", "10s"));
        assertThat(policy.grace()).isEqualTo(Duration.ofMinutes(10));
        assertThat(policy.every()).isEqualTo(Duration.ofSeconds(10));
        var job = new GrantsConfiguration().expireGrantsJob(null, policy);
        assertThat(job.name()).isEqualTo("expire-grants");
        assertThat(job.interval()).isEqualTo(Duration.ofSeconds(10));
    }
}
