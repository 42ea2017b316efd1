package io.changeflow.bootstrap;

import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What {@code /actuator/prometheus} may show: never the file system. Micrometer's disk space meters carry
 * the working directory's absolute path as a tag ({@code disk_free_bytes{path="/srv/..."}}), which the
 * endpoint would hand to anyone who can reach it; disk space belongs to the host's monitoring. The disk
 * space health indicator is off for the same reason ({@code management.health.diskspace.enabled}).
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityConfiguration {

    @Bean
    MeterFilter noFileSystemPathsInMetrics() {
        return MeterFilter.denyNameStartsWith("disk.");
    }
}
