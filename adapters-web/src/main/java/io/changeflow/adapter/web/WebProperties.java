package io.changeflow.adapter.web;

import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * The web layer's start-up settings (Spring properties, read once; the dynamic keys are in
 * the local adapters' dynamic configuration and {@link io.changeflow.application.settings.Settings}). Every default
 * is here; docs/configuration.md lists them.
 */
public record WebProperties(
        List<String> trustedProxies,
        Duration permissionsTimeout,
        boolean demoLogin,
        int rateLimitMaxKeys,
        Duration clusterRateLimitTimeout,
        List<AuthorizationRules.Rule> authorizationRules,
        List<String> businessActivities,
        DataSize maxBodySize,
        List<String> apiPrefixes,
        List<String> allowedOrigins,
        List<String> emailDomains,
        List<String> monitoringRuleCodes,
        int rateLimitMaxAddressKeys,
        Duration directoryTimeout,
        Set<CallerIdentity.Header> identityHeaders) {

    /** Settings of an earlier version that the rule table replaced; set, they stop start-up rather than be ignored. */
    public static final List<String> REPLACED = List.of("changeflow.authorization.paths", "changeflow.authorization.rule-codes");

    /** The profile without which the demo sign-in does not exist, whatever {@code changeflow.sandbox.demo-login} says. */
    public static final String SANDBOX_PROFILE = "sandbox";

    public static WebProperties load(Environment environment) {
        var binder = Binder.get(environment);
        for (var replaced : REPLACED) {
            if (binder.bind(replaced, Bindable.listOf(String.class)).isBound()) {
                // Ignoring it could leave a path the operator meant to protect open.
                throw new IllegalStateException(replaced + " is no longer read: set changeflow.authorization.rules "
                        + "(path patterns and rule codes per rule; see docs/configuration.md)");
            }
        }
        return new WebProperties(
                strings(binder, "changeflow.identity.trusted-proxies", List.of("127.0.0.0/8", "::1")),
                IdentityPortDeadlines.positive(binder.bind("changeflow.permissions.timeout", Duration.class).orElse(null),
                        Duration.ofSeconds(2)),
                binder.bind("changeflow.sandbox.demo-login", Boolean.class).orElse(false)
                        && environment.matchesProfiles(SANDBOX_PROFILE),
                positive(binder, "changeflow.ratelimit.max-keys", 50_000),
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
                        List.of("/api/", "/ops/", "/callbacks/", "/sandbox/", "/sim/", "/actuator/", "/v3/", "/assets/", "/error")),
                strings(binder, "changeflow.web.allowed-origins", List.of()),
                strings(binder, "changeflow.identity.email-domains", List.of()),
                strings(binder, "changeflow.monitoring.rule-codes", List.of("ops.operator", "ops.admin")),
                positive(binder, "changeflow.ratelimit.max-address-keys", 50_000),
                IdentityPortDeadlines.positive(binder.bind("changeflow.directory.timeout", Duration.class).orElse(null),
                        Duration.ofSeconds(2)),
                identityHeaders(strings(binder, "changeflow.identity.headers", List.of())));
    }

    /**
     * {@code changeflow.identity.headers}: the identity headers the gateway sends. Missing or empty: the fail-safe
     * {@linkplain CallerIdentity#DEFAULT_HEADERS default} (the user header only). A name that is not one of ours stops
     * start-up: guessing could believe a header a client wrote.
     */
    static Set<CallerIdentity.Header> identityHeaders(List<String> names) {
        if (names.isEmpty()) {
            return CallerIdentity.DEFAULT_HEADERS;
        }
        var headers = EnumSet.noneOf(CallerIdentity.Header.class);
        for (var name : names) {
            headers.add(CallerIdentity.Header.named(name).orElseThrow(() -> new IllegalStateException(
                    "changeflow.identity.headers lists a header that is not an identity header; allowed: "
                            + CallerIdentity.USER_HEADER + ", " + CallerIdentity.EMAIL_HEADER)));
        }
        return Set.copyOf(headers);
    }

    /** A positive integer setting; missing, garbled, zero or negative: {@code fallback} (never "unbounded", never a failed start). */
    static int positive(Binder binder, String name, int fallback) {
        try {
            var value = binder.bind(name, String.class).map(String::strip).map(Integer::parseInt).orElse(fallback);
            return value > 0 ? value : fallback;
        } catch (RuntimeException garbled) {
            return fallback;
        }
    }

    private static List<String> strings(Binder binder, String name, List<String> fallback) {
        return binder.bind(name, Bindable.listOf(String.class))
                .map(list -> list.stream().map(String::strip).filter(s -> !s.isEmpty()).toList())
                .orElse(fallback);
    }
}
