package io.changeflow.bootstrap;

import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.health.application.AvailabilityStateHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * What {@code /actuator/prometheus} may show: never the file system. Micrometer's disk space meters carry
 * the working directory's absolute path as a tag ({@code disk_free_bytes{path="/srv/..."}}), which the
 * endpoint would hand to anyone who can reach it; disk space belongs to the host's monitoring. The disk
 * space health indicator is off for the same reason ({@code management.health.diskspace.enabled}). And health
 * answers within a deadline, whatever a dependency does (issue 34).
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityConfiguration {

    /**
     * Every health indicator (the database's and the scheduler's, which readiness includes, among them) answers within
     * {@code changeflow.health.timeout} ({@link BoundedHealthIndicator}), all of them started together; the availability states answer from memory
     * and stay as they are. Static: it post-processes other beans.
     */
    @Bean
    static BeanPostProcessor boundedHealthIndicators(Environment environment) {
        var checkedTogether = new BoundedHealthIndicator.Group();
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HealthIndicator indicator && !(bean instanceof AvailabilityStateHealthIndicator)
                        && !(bean instanceof BoundedHealthIndicator)) {
                    return new BoundedHealthIndicator(beanName, indicator, BoundedHealthIndicator.deadline(environment),
                            checkedTogether);
                }
                return bean;
            }
        };
    }

    @Bean
    MeterFilter noFileSystemPathsInMetrics() {
        return MeterFilter.denyNameStartsWith("disk.");
    }
}
