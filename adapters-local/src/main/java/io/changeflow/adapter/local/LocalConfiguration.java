package io.changeflow.adapter.local;

import io.changeflow.application.port.out.ConfigSources;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.Permissions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The local adapters: the adapters of non-web ports that need no external system. Import it from the
 * application.
 *
 * <p>It provides: the embedded configuration center ({@link DynamicConfig} and its {@link ConfigSources}
 * on a watched file plus the Environment, {@link FileDynamicConfig}); the people file
 * ({@link DemoPeople}, read from {@code changeflow.directory.location}, in the sandbox the demo people).
 *
 * <p>Embedded defaults, active unless {@code changeflow.identity.embedded-defaults=false}: a
 * {@link Directory} on the people file and a {@link Permissions} read from
 * {@code changeflow.permissions.grants.*}. A deployment with a real directory and permission service
 * sets the property to false and wires its own adapters.
 *
 * <p>Also here, not wired: {@link LoggingAuditLog}, an {@code AuditLog} for an application without the
 * persistence adapter. Every setting is in docs/configuration.md.
 */
@Configuration(proxyBeanMethods = false)
public class LocalConfiguration {

    private static final String TEMPLATE = "io/changeflow/adapter/local/dynamic-defaults.properties";

    @Bean
    LocalProperties changeflowLocalProperties(Environment environment) {
        return LocalProperties.load(environment);
    }

    @Bean(destroyMethod = "close")
    FileDynamicConfig dynamicConfig(LocalProperties properties, Environment environment) {
        return new FileDynamicConfig(properties.dynamicConfigFile(), environment, properties.dynamicConfigPollInterval(),
                template()).start();
    }

    @Bean
    PeopleFile directoryFile(LocalProperties properties) {
        return PeopleFile.configured(properties.directoryLocation(), properties.demoLogin(),
                properties.embeddedIdentityDefaults(), new DefaultResourceLoader());
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.identity.embedded-defaults", havingValue = "true", matchIfMissing = true)
    Directory fileDirectory(PeopleFile directoryFile) {
        return new PeopleFileDirectory(directoryFile);
    }

    @Bean
    @ConditionalOnProperty(name = "changeflow.identity.embedded-defaults", havingValue = "true", matchIfMissing = true)
    Permissions configuredPermissions(LocalProperties properties) {
        return new ConfiguredPermissions(properties.permissionGrants());
    }

    private static String template() {
        try (var in = new ClassPathResource(TEMPLATE).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the dynamic configuration template is missing from the local adapters", e);
        }
    }
}
