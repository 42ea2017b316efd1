package io.changeflow.adapter.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The start-up settings of the local adapters (Spring properties, read once; the dynamic keys are in
 * {@link FileDynamicConfig} and {@link io.changeflow.application.settings.Settings}). Every default is
 * here; docs/configuration.md lists them.
 */
record LocalProperties(
        Path dynamicConfigFile,
        Duration dynamicConfigPollInterval,
        boolean embeddedIdentityDefaults,
        String directoryLocation,
        Map<String, String> permissionGrants,
        boolean demoLogin) {

    static final String DEFAULT_DYNAMIC_CONFIG_FILE = "config/dynamic.properties";

    static LocalProperties load(Environment environment) {
        var binder = Binder.get(environment);
        return new LocalProperties(
                Path.of(binder.bind("changeflow.dynamic-config.file", String.class).orElse(DEFAULT_DYNAMIC_CONFIG_FILE)),
                binder.bind("changeflow.dynamic-config.poll-interval", Duration.class).orElse(Duration.ofSeconds(2)),
                binder.bind("changeflow.identity.embedded-defaults", Boolean.class).orElse(true),
                binder.bind("changeflow.directory.location", String.class).map(String::strip).orElse(""),
                binder.bind("changeflow.permissions.grants", Bindable.mapOf(String.class, String.class)).orElse(Map.of()),
                // the demo directory only with the sandbox profile: the property alone never enables it
                binder.bind("changeflow.sandbox.demo-login", Boolean.class).orElse(false)
                        && environment.matchesProfiles("sandbox"));
    }
}
