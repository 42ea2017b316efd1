package io.changeflow.adapter.web;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * The web layer's start-up settings (Spring properties, read once; the dynamic keys are in
 * {@link FileDynamicConfig} and {@link io.changeflow.application.settings.Settings}). Every default
 * is here; docs/configuration.md lists them.
 */
record WebProperties(
        Path dynamicConfigFile,
        Duration dynamicConfigPollInterval,
        List<String> trustedProxies,
        boolean embeddedIdentityDefaults,
        String directoryLocation,
        Map<String, String> permissionGrants,
        Duration permissionsTimeout,
        boolean demoLogin,
        int rateLimitMaxKeys,
        Duration clusterRateLimitTimeout,
        List<AuthorizationRules.Rule> authorizationRules,
        List<String> businessActivities,
        DataSize maxBodySize,
        List<String> apiPrefixes) {

    static final String DEFAULT_DYNAMIC_CONFIG_FILE = "config/dynamic.properties";
    static final String DEFAULT_DIRECTORY_LOCATION = "classpath:changeflow/demo-directory.properties";

    /** Settings of an earlier version that the rule table replaced; set, they stop start-up rather than be ignored. */
    static final List<String> REPLACED = List.of("changeflow.authorization.paths", "changeflow.authorization.rule-codes");

    static WebProperties load(Environment environment) {
        var binder = Binder.get(environment);
        for (var replaced : REPLACED) {
            if (binder.bind(replaced, Bindable.listOf(String.class)).isBound()) {
                // Ignoring it could leave a path the operator meant to protect open.
                throw new IllegalStateException(replaced + " is no longer read: set changeflow.authorization.rules "
                        + "(path patterns and rule codes per rule; see docs/configuration.md)");
            }
        }
        return new WebProperties(
                Path.of(binder.bind("changeflow.dynamic-config.file", String.class).orElse(DEFAULT_DYNAMIC_CONFIG_FILE)),
                binder.bind("changeflow.dynamic-config.poll-interval", Duration.class).orElse(Duration.ofSeconds(2)),
                strings(binder, "changeflow.identity.trusted-proxies", List.of("127.0.0.0/8", "::1")),
                binder.bind("changeflow.identity.embedded-defaults", Boolean.class).orElse(true),
                binder.bind("changeflow.directory.location", String.class).orElse(DEFAULT_DIRECTORY_LOCATION),
                binder.bind("changeflow.permissions.grants", Bindable.mapOf(String.class, String.class)).orElse(Map.of()),
                binder.bind("changeflow.permissions.timeout", Duration.class).orElse(Duration.ofSeconds(2)),
                binder.bind("changeflow.sandbox.demo-login", Boolean.class).orElse(false),
                binder.bind("changeflow.ratelimit.max-keys", Integer.class).orElse(50_000),
                binder.bind("changeflow.ratelimit.cluster-timeout", Duration.class).orElse(Duration.ofMillis(500)),
                binder.bind("changeflow.authorization.rules", Bindable.listOf(AuthorizationRules.Rule.class))
                        .orElse(AuthorizationRules.DEFAULTS),
                strings(binder, "changeflow.metrics.business-activities", List.of(
                        "POST /api/requests",
                        "GET /api/requests",
                        "GET /api/requests/{operationId}",
                        "GET /api/requests/preview")),
                binder.bind("changeflow.web.max-body-size", DataSize.class).orElse(DataSize.ofKilobytes(64)),
                strings(binder, "changeflow.web.api-prefixes",
                        List.of("/api/", "/ops/", "/callbacks/", "/sandbox/", "/sim/", "/actuator/", "/assets/", "/error")));
    }

    private static List<String> strings(Binder binder, String name, List<String> fallback) {
        return binder.bind(name, Bindable.listOf(String.class))
                .map(list -> list.stream().map(String::strip).filter(s -> !s.isEmpty()).toList())
                .orElse(fallback);
    }
}
