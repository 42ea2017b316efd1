package io.changeflow.sandbox.webhook;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Shared pieces of the simulators' callback delivery: where to, and the {@code sandbox.webhook.*} settings. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookConfiguration {

    @Bean
    CallbackEndpoint sandboxCallbackEndpoint(Environment environment) {
        return new CallbackEndpoint(environment);
    }
}
