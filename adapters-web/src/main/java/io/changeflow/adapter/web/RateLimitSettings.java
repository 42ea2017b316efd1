package io.changeflow.adapter.web;

import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.config.Resolved;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The two rate-limit settings {@link Settings} does not know yet, resolved the same way (read on
 * every use, each with its fallback). They belong in {@link Settings} (with their parsers in the
 * domain's {@code config} package); until they move there, this is the one place that reads them.
 *
 * <ul>
 *   <li>{@value #SCOPE}: {@code local} (per instance) or {@code cluster} (one quota shared through the
 *       database). Missing or unknown: {@code local}, the variant that needs no dependency.</li>
 *   <li>{@value #WINDOW_SECONDS}: the sliding window in seconds. Missing, unparsable or not positive:
 *       {@value #DEFAULT_WINDOW_SECONDS}; above {@value #MAX_WINDOW_SECONDS}: capped (a typo must not
 *       lock a person out for a day).</li>
 * </ul>
 */
final class RateLimitSettings {

    static final String SCOPE = "ratelimit.scope";
    static final String WINDOW_SECONDS = "ratelimit.windowSeconds";
    static final int DEFAULT_WINDOW_SECONDS = 60;
    static final int MAX_WINDOW_SECONDS = 3600;

    /** Where the quota is counted. */
    enum Scope {
        /** In this instance's memory: the effective global quota is the limit times the number of instances. */
        LOCAL,
        /** In the shared database: one quota across all instances. */
        CLUSTER
    }

    private final DynamicConfig config;

    RateLimitSettings(DynamicConfig config) {
        this.config = config;
    }

    Resolved<Scope> scope() {
        var raw = read(SCOPE);
        if (blank(raw)) {
            return new Resolved<>(raw, Scope.LOCAL, "missing: LOCAL");
        }
        return switch (raw.get().strip().toUpperCase(Locale.ROOT)) {
            case "LOCAL" -> new Resolved<>(raw, Scope.LOCAL, "configured");
            case "CLUSTER" -> new Resolved<>(raw, Scope.CLUSTER, "configured");
            default -> new Resolved<>(raw, Scope.LOCAL, "unknown value: LOCAL");
        };
    }

    Resolved<Duration> window() {
        var raw = read(WINDOW_SECONDS);
        var fallback = Duration.ofSeconds(DEFAULT_WINDOW_SECONDS);
        if (blank(raw)) {
            return new Resolved<>(raw, fallback, "missing: default " + DEFAULT_WINDOW_SECONDS);
        }
        try {
            var seconds = Integer.parseInt(raw.get().strip());
            if (seconds <= 0) {
                return new Resolved<>(raw, fallback, "not positive: default " + DEFAULT_WINDOW_SECONDS);
            }
            if (seconds > MAX_WINDOW_SECONDS) {
                return new Resolved<>(raw, Duration.ofSeconds(MAX_WINDOW_SECONDS), "above the cap: " + MAX_WINDOW_SECONDS);
            }
            return new Resolved<>(raw, Duration.ofSeconds(seconds), "configured");
        } catch (NumberFormatException e) {
            return new Resolved<>(raw, fallback, "unparsable: default " + DEFAULT_WINDOW_SECONDS);
        }
    }

    /** Both settings as the operations console shows them. */
    List<Settings.Described> describe() {
        var scope = scope();
        var window = window();
        return List.of(
                new Settings.Described(SCOPE, scope.raw(), scope.value().name(), scope.rule()),
                new Settings.Described(WINDOW_SECONDS, window.raw(), Long.toString(window.value().toSeconds()), window.rule()));
    }

    private Optional<String> read(String key) {
        try {
            var value = config.get(key);
            return value == null ? Optional.empty() : value;
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean blank(Optional<String> raw) {
        return raw.isEmpty() || raw.get().isBlank();
    }
}
