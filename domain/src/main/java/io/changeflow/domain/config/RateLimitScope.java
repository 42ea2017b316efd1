package io.changeflow.domain.config;

import java.util.Optional;

/**
 * Where rate-limit quotas are counted ({@code ratelimit.scope}). Misconfiguration keeps the variant
 * that needs no dependency: missing, blank, unknown or with control characters is {@link #LOCAL}.
 */
public enum RateLimitScope {
    /** In each instance's memory: the effective global quota is the limit times the number of instances. */
    LOCAL,
    /** In the shared database: one quota across all instances (failing open when the database is in trouble). */
    CLUSTER;

    /** Trimmed and case-insensitive; anything but {@code local} or {@code cluster} is {@link #LOCAL}. */
    public static Resolved<RateLimitScope> resolve(Optional<String> raw) {
        if (Resolved.blank(raw)) {
            return new Resolved<>(raw, LOCAL, "missing: LOCAL");
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw, LOCAL, "control characters: LOCAL");
        }
        return switch (ConfigText.keyword(raw.get())) {
            case "LOCAL" -> new Resolved<>(raw, LOCAL, "configured");
            case "CLUSTER" -> new Resolved<>(raw, CLUSTER, "configured");
            default -> new Resolved<>(raw, LOCAL, "unknown value: LOCAL");
        };
    }
}
