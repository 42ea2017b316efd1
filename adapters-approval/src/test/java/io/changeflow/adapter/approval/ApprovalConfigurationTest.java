package io.changeflow.adapter.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.CallbackAuthenticity.Verdict;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ApprovalConfigurationTest {

    private static final String SECRET = "whsec_Y29uZmlndXJhdGlvbi10ZXN0LXNlY3JldC0wMTIzNDU2Nzg=";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(ApprovalConfiguration.class);

    @Test
    void defaultsAreFiniteTimeoutsAndAClosedBreaker() {
        runner.run(context -> {
            var approvals = context.getBean(HttpApprovals.class);
            var properties = approvals.properties();

            assertThat(context.getBean(Approvals.class)).isSameAs(approvals);
            assertThat(properties.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(properties.readTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(properties.callTimeout()).isEqualTo(Duration.ofSeconds(10));
            var breaker = approvals.circuitBreaker().getCircuitBreakerConfig();
            assertThat(breaker.getFailureRateThreshold()).isEqualTo(50f);
            assertThat(breaker.getSlidingWindowSize()).isEqualTo(50);
            assertThat(breaker.getMinimumNumberOfCalls()).isEqualTo(20);
            assertThat(breaker.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(2);
            assertThat(approvals.circuitBreaker().getName()).isEqualTo("approval");
        });
    }

    @Test
    void bindsSettingsAndReplacesUnsafeValuesWithDefaults() {
        runner.withPropertyValues(
                "changeflow.approval.connect-timeout=0",
                "changeflow.approval.read-timeout=750ms",
                "changeflow.approval.call-timeout=-1s",
                "changeflow.approval.circuit-breaker.minimum-number-of-calls=3",
                "changeflow.approval.circuit-breaker.wait-duration-in-open-state=45s",
                "changeflow.approval.circuit-breaker.failure-rate-threshold=250").run(context -> {
            var approvals = context.getBean(HttpApprovals.class);

            assertThat(approvals.properties().connectTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(approvals.properties().readTimeout()).isEqualTo(Duration.ofMillis(750));
            assertThat(approvals.properties().callTimeout()).isEqualTo(Duration.ofSeconds(10));
            var breaker = approvals.circuitBreaker().getCircuitBreakerConfig();
            assertThat(breaker.getMinimumNumberOfCalls()).isEqualTo(3);
            assertThat(breaker.getFailureRateThreshold()).isEqualTo(50f);
            assertThat(approvals.properties().circuitBreaker().waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(45));
        });
    }

    @Test
    void callbacksHealthIsDownAndEverythingRefusedWithoutSecrets() {
        runner.withPropertyValues("changeflow.callbacks.approval.secrets=" + SECRET).run(context -> {
            var health = context.getBean("callbacksHealthIndicator", HealthIndicator.class).health();
            var authenticity = context.getBean(CallbackAuthenticity.class);

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("deploy")).isEqualTo(Map.of("configured", false, "secrets", 0, "unusableSecrets", 0));
            assertThat(health.getDetails().toString()).doesNotContain(SECRET.substring(6));
            assertThat(authenticity.verify(Source.DEPLOY, Map.of(), new byte[0])).isEqualTo(Verdict.NOT_CONFIGURED);
            assertThat(authenticity.configured(Source.APPROVAL)).isTrue();
        });
    }

    @Test
    void callbacksHealthIsUpWithSecretsForBothSourcesAndCountsRotatedOnes() {
        runner.withPropertyValues(
                "changeflow.callbacks.approval.secrets[0]=" + SECRET,
                "changeflow.callbacks.approval.secrets[1]=whsec_bmV4dC1zZWNyZXQtYWZ0ZXItdGhlLXJvdGF0aW9uLTAx",
                "changeflow.callbacks.deploy.secrets=" + SECRET + ",not base64 !").run(context -> {
            var health = context.getBean("callbacksHealthIndicator", HealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails().get("approval")).isEqualTo(Map.of("configured", true, "secrets", 2, "unusableSecrets", 0));
            assertThat(health.getDetails().get("deploy")).isEqualTo(Map.of("configured", true, "secrets", 1, "unusableSecrets", 1));
        });
    }

    @Test
    void approvalHealthShowsTheClosedBreakerWhenABaseUrlIsConfigured() {
        runner.withPropertyValues("changeflow.approval.base-url=http://approvals.example").run(context -> {
            var health = context.getBean("approvalHealthIndicator", HealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("circuitBreaker", "CLOSED").containsEntry("baseUrlConfigured", true);
        });
    }
}
