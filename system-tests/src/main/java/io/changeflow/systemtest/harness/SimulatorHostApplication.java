package io.changeflow.systemtest.harness;

import io.changeflow.sandbox.SandboxConfiguration;
import io.changeflow.sandbox.gitlab.GitLabSimulator;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The simulator host's Spring Boot application: the sandbox module's simulators (GitLab, approval
 * system, deploy pipeline, fault injection) plus the harness's {@link CallbackRelay},
 * {@link MergeLog} and {@link GitLabCalls}. Started by {@link SimulatorHost}; nothing of Changeflow
 * itself runs here.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(SandboxConfiguration.class)
class SimulatorHostApplication {

    @Bean
    CallbackRelay callbackRelay() {
        return new CallbackRelay();
    }

    @Bean
    MergeLog mergeLog() {
        return new MergeLog();
    }

    @Bean
    GitLabCalls gitLabCalls(GitLabSimulator gitlab) {
        return new GitLabCalls(gitlab);
    }

    @Bean
    WebMvcConfigurer gitLabCallRecording(GitLabCalls calls) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(calls).addPathPatterns("/sim/gitlab/api/**");
            }
        };
    }
}
