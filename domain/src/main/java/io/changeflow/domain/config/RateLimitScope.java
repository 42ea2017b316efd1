package io.changeflow.domain.config;

/**
 * Where rate-limit quotas are counted ({@code ratelimit.scope}). Misconfiguration keeps the variant
 * that needs no dependency: missing, blank, unknown or with control characters is {@link #LOCAL}.
 */
public enum RateLimitScope {
    /** In each instance's memory: the effective global quota is the limit times the number of instances. */
    LOCAL,
    /** In the shared database: one quota across all instances (failing open when the database is in trouble). */
    CLUSTER;

    private static final KeywordSetting<RateLimitScope> SETTING = KeywordSetting.ofConstants(values(), LOCAL);

    /** Trimmed and case-insensitive; anything but {@code local} or {@code cluster} is {@link #LOCAL}. */
    public static Resolved<RateLimitScope> resolve(RawValue raw) {
        return SETTING.resolve(raw);
    }
}
