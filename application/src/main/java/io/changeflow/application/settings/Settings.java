package io.changeflow.application.settings;

import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.domain.config.AccessMode;
import io.changeflow.domain.config.AccessPolicy;
import io.changeflow.domain.config.ApproverMode;
import io.changeflow.domain.config.RateLimitScope;
import io.changeflow.domain.config.RateLimitSetting;
import io.changeflow.domain.config.RateLimitWindow;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.config.Resolved;
import io.changeflow.domain.config.RetryCount;
import io.changeflow.domain.config.TestWindow;
import io.changeflow.domain.config.Toggle;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every dynamic setting of the contract, read from the configuration center on every call (so a
 * change applies without restart) and resolved with its fail-safe fallback. The one place that
 * knows the keys; the operations console lists {@link #describeAll()}.
 */
public final class Settings {

    public static final String APPLY_RATE_LIMIT = "APPLY_RATE_LIMIT";
    public static final String PREVIEW_RATE_LIMIT = "PREVIEW_RATE_LIMIT";
    public static final String ACCESS_MODE = "ACCESS_MODE";
    public static final String ACCESS_TEST_WINDOW = "ACCESS_TEST_WINDOW";
    public static final String ACCESS_ZONE = "ACCESS_ZONE";
    public static final String APPROVE_FIRST = "workflow.approveFirst";
    public static final String APPROVAL_MAX_RETRIES = "approval.maxRetries";
    public static final String APPROVER_MODE = "approver.mode";
    public static final String RATE_LIMIT_SCOPE = "ratelimit.scope";
    public static final String RATE_LIMIT_WINDOW_SECONDS = "ratelimit.windowSeconds";

    /** The default of {@code approval.maxRetries}. */
    public static final int DEFAULT_APPROVAL_MAX_RETRIES = 3;
    /** The default of the submit endpoint's rate limit (its {@code @RateLimit} annotation says the same). */
    public static final int DEFAULT_APPLY_RATE_LIMIT = 10;
    /** The default of the preview endpoint's rate limit: a form asks for a preview as its fields change. */
    public static final int DEFAULT_PREVIEW_RATE_LIMIT = 60;

    /** One setting as the operations console shows it. */
    public record Described(String key, Optional<String> raw, String resolved, String rule) {}

    private final DynamicConfig config;

    public Settings(DynamicConfig config) {
        this.config = config;
    }

    public Resolved<AccessMode> accessMode() {
        return AccessMode.resolve(read(ACCESS_MODE));
    }

    public Resolved<TestWindow> testWindow() {
        return TestWindow.resolve(read(ACCESS_TEST_WINDOW), read(ACCESS_ZONE));
    }

    /** Whether submissions are accepted at {@code now} (mode, and the window in TEST_WINDOW mode). */
    public boolean accessOpen(Instant now) {
        return AccessPolicy.isOpen(accessMode().value(), testWindow().value(), now);
    }

    /** The limit of a rate-limited endpoint: {@code limitKey} resolved against the annotation's default. */
    public Resolved<OptionalInt> rateLimit(String limitKey, int annotationDefault) {
        return RateLimitSetting.resolve(read(limitKey), annotationDefault);
    }

    public Resolved<Boolean> approveFirst() {
        return Toggle.resolve(read(APPROVE_FIRST));
    }

    public Resolved<Integer> approvalMaxRetries() {
        return RetryCount.resolve(read(APPROVAL_MAX_RETRIES), DEFAULT_APPROVAL_MAX_RETRIES);
    }

    public Resolved<ApproverMode> approverMode() {
        return ApproverMode.resolve(read(APPROVER_MODE));
    }

    /** Where rate-limit quotas are counted: missing, unknown or unreadable is LOCAL (needs no dependency). */
    public Resolved<RateLimitScope> rateLimitScope() {
        return RateLimitScope.resolve(read(RATE_LIMIT_SCOPE));
    }

    /** The sliding rate-limit window: 60 s unless a positive number of seconds is set, capped at one hour. */
    public Resolved<Duration> rateLimitWindow() {
        return RateLimitWindow.resolve(read(RATE_LIMIT_WINDOW_SECONDS));
    }

    /** Every setting of the contract: raw value, resolved value and the rule applied. */
    public List<Described> describeAll() {
        return List.of(
                describe(APPLY_RATE_LIMIT, rateLimit(APPLY_RATE_LIMIT, DEFAULT_APPLY_RATE_LIMIT),
                        v -> v.isPresent() ? String.valueOf(v.getAsInt()) : "no limiting"),
                describe(PREVIEW_RATE_LIMIT, rateLimit(PREVIEW_RATE_LIMIT, DEFAULT_PREVIEW_RATE_LIMIT),
                        v -> v.isPresent() ? String.valueOf(v.getAsInt()) : "no limiting"),
                describe(ACCESS_MODE, accessMode(), AccessMode::name),
                describe(ACCESS_TEST_WINDOW, testWindow(), TestWindow::toString),
                new Described(ACCESS_ZONE, read(ACCESS_ZONE).text(), testWindow().value().isClosed() ? "closed window" : "in use",
                        "read together with " + ACCESS_TEST_WINDOW),
                describe(APPROVE_FIRST, approveFirst(), String::valueOf),
                describe(APPROVAL_MAX_RETRIES, approvalMaxRetries(), String::valueOf),
                describe(APPROVER_MODE, approverMode(), ApproverMode::name),
                describe(RATE_LIMIT_SCOPE, rateLimitScope(), RateLimitScope::name),
                describe(RATE_LIMIT_WINDOW_SECONDS, rateLimitWindow(), w -> String.valueOf(w.toSeconds())));
    }

    private <T> Described describe(String key, Resolved<T> resolved, java.util.function.Function<T, String> show) {
        return new Described(key, resolved.raw(), show.apply(resolved.value()), resolved.rule());
    }

    private RawValue read(String key) {
        try {
            return new RawValue(config.get(key));
        } catch (RuntimeException e) {
            // The port promises not to throw; if an implementation does, the value reads as missing.
            return RawValue.missing();
        }
    }
}
