package io.changeflow.bootstrap;

import io.changeflow.adapter.approval.ApprovalConfiguration;
import io.changeflow.adapter.gitlab.GitLabConfiguration;
import io.changeflow.adapter.local.LocalConfiguration;
import io.changeflow.adapter.notify.NotifyConfiguration;
import io.changeflow.adapter.persistence.PersistenceConfiguration;
import io.changeflow.adapter.scheduler.SchedulerConfiguration;
import io.changeflow.adapter.web.WebConfiguration;
import io.changeflow.sandbox.SandboxConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;

/** Every adapter, each through its one public configuration class. */
@Configuration(proxyBeanMethods = false)
@Import({PersistenceConfiguration.class, SchedulerConfiguration.class, GitLabConfiguration.class,
        ApprovalConfiguration.class, LocalConfiguration.class, NotifyConfiguration.class, WebConfiguration.class})
class AdaptersConfiguration {

    /**
     * The simulators of GitLab, the approval system and the deploy pipeline, fault injection and the
     * demo sign-in: the sandbox profile only. The production profile has none of these.
     */
    @Configuration(proxyBeanMethods = false)
    @Profile("sandbox")
    @Import(SandboxConfiguration.class)
    static class Sandbox {
    }
}
