package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.SchedulerInstanceName;
import io.changeflow.application.instance.AnnounceInstance;
import io.changeflow.application.instance.ShowInstances;
import io.changeflow.application.port.out.Instances;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Every running instance's version and commit (issue 31): this instance's identity from the build
 * ({@code META-INF/build-info.properties}, {@code git.properties}), its row in the roster kept by
 * {@link InstanceHeartbeat}, the roster for operators ({@code GET /ops/instances}) and the name in
 * {@code /actuator/info} beside Boot's build and git sections.
 */
@Configuration(proxyBeanMethods = false)
class InstancesConfiguration {

    static final String UNKNOWN = "unknown";

    @Bean
    InstanceProperties instanceProperties(Environment environment) {
        return InstanceProperties.of(environment.getProperty("changeflow.instances.heartbeat-interval"),
                environment.getProperty("changeflow.instances.stale-after"),
                environment.getProperty("changeflow.instances.forget-after"));
    }

    @Bean
    Instances.Identity instanceIdentity(Environment environment, ObjectProvider<BuildProperties> build,
            ObjectProvider<GitProperties> git) {
        var buildInfo = build.getIfAvailable();
        var gitInfo = git.getIfAvailable();
        var version = buildInfo == null || buildInfo.getVersion() == null ? UNKNOWN : buildInfo.getVersion();
        var commit = gitInfo == null || gitInfo.getCommitId() == null ? UNKNOWN : gitInfo.getCommitId();
        return new Instances.Identity(cut(instanceName(environment), 100), cut(version, 64), cut(commit, 64));
    }

    @Bean
    AnnounceInstance announceInstance(Instances instances, Instances.Identity instanceIdentity,
            InstanceProperties properties) {
        return new AnnounceInstance(instances, instanceIdentity, properties.forgetAfter());
    }

    @Bean
    InstanceHeartbeat instanceHeartbeat(AnnounceInstance announce, InstanceProperties properties) {
        return new InstanceHeartbeat(announce, properties.heartbeatInterval());
    }

    /** The time readiness answers DOWN while requests are still taken, at a graceful stop (issue 31). */
    @Bean
    ReadinessDrain readinessDrain(Environment environment) {
        Duration phase;
        try {
            phase = environment.getProperty("spring.lifecycle.timeout-per-shutdown-phase", Duration.class, PHASE);
        } catch (RuntimeException garbled) {
            phase = PHASE;
        }
        return ReadinessDrain.of(environment.getProperty(ReadinessDrain.KEY),
                phase.isNegative() || phase.isZero() ? PHASE : phase);
    }

    /** Spring's default {@code spring.lifecycle.timeout-per-shutdown-phase}. */
    static final Duration PHASE = Duration.ofSeconds(30);

    @Bean
    ShowInstances showInstances(Instances instances, InstanceProperties properties) {
        return new ShowInstances(instances, properties.staleAfter());
    }

    /** {@code "instance": {"name": ...}} in /actuator/info: the row of /ops/instances that is this instance. */
    @Bean
    InfoContributor instanceInfo(Instances.Identity instanceIdentity) {
        return builder -> builder.withDetail("instance", Map.of("name", instanceIdentity.name()));
    }

    /**
     * The scheduler's name of this instance ({@code scheduled_tasks.picked_by}): {@code changeflow.scheduler.name},
     * else host name and process id ({@link SchedulerInstanceName}, the scheduler adapter's own).
     */
    private static String instanceName(Environment environment) {
        return SchedulerInstanceName.of(environment.getProperty("changeflow.scheduler.name"));
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
