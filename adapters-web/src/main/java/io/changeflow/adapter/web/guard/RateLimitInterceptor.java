package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.IpAddresses;
import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.config.RateLimitScope;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Interceptor 1 of 3: rate limiting of handler methods annotated {@link RateLimit}, before any
 * downstream work and before argument binding. Runs before the idempotency check, so a duplicate
 * over quota gets 429 (by design).
 *
 * <p>The limit is read on every request ({@link Settings#rateLimit}), and so are the scope
 * ({@link Settings#rateLimitScope}) and the window ({@link Settings#rateLimitWindow}). The subject is the canonical login identity, else {@code ip:} plus the
 * client address by the trusted-proxy rule (IPv6 by its /64), each in its own bounded table of the local
 * limiter, so a flood of forged addresses never pushes a person out.
 * A rejection answers 429 RATE_LIMITED with {@code Retry-After}, {@code RateLimit-Policy} and
 * {@code RateLimit} headers (IETF draft httpapi-ratelimit-headers) and is counted by
 * {@code changeflow.ratelimit.rejected}; it never reaches the business metrics.
 *
 * <p>Failure behaviour: a cleared, non-positive or unparsable limit: no limiting (never blocking
 * everyone). A cluster store that throws, answers null, does not answer within its deadline or whose
 * bulkhead is full: this instance's limiter decides, counted ({@code changeflow.ratelimit.degraded});
 * cluster scope with no store wired: local limiting, counted. A key the local limiter has no slot for:
 * limited through the shared overflow bucket of its table, counted. Any other exception: allowed, counted.
 */
public final class RateLimitInterceptor implements HandlerInterceptor, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RateLimitInterceptor.class);
    private static final Pattern SAFE_BUCKET = Pattern.compile("[^A-Za-z0-9._-]");

    private final Settings settings;
    private final SlidingWindowLimiter localLimiter;
    private final ClusterRateLimits clusterLimits;
    private final TimeBoxedCalls clusterCalls;
    private final CallerIdentity identities;
    private final TrustedProxies proxies;
    private final SafeMeters meters;
    private final JsonResponses responses;

    /**
     * @param clusterLimits the shared store, or null when none is wired (cluster scope then degrades to local)
     * @param clusterCalls  the deadline and bulkhead for calls to the shared store
     */
    public RateLimitInterceptor(Settings settings, SlidingWindowLimiter localLimiter,
            ClusterRateLimits clusterLimits, TimeBoxedCalls clusterCalls, CallerIdentity identities, TrustedProxies proxies,
            SafeMeters meters, JsonResponses responses) {
        this.settings = settings;
        this.localLimiter = localLimiter;
        this.clusterLimits = clusterLimits;
        this.clusterCalls = clusterCalls;
        this.identities = identities;
        this.proxies = proxies;
        this.meters = meters;
        this.responses = responses;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) throws IOException {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        var rateLimit = method.getMethodAnnotation(RateLimit.class);
        if (rateLimit == null) {
            return true;
        }
        var bucket = SAFE_BUCKET.matcher(rateLimit.bucket()).replaceAll("_");
        SlidingWindowLimiter.Decision decision;
        int limit;
        Duration window;
        try {
            var configured = settings.rateLimit(rateLimit.limitKey(), rateLimit.defaultLimit()).value();
            if (configured.isEmpty()) {
                return true;
            }
            limit = configured.getAsInt();
            window = settings.rateLimitWindow().value();
            decision = acquire(bucket, subject(request), limit, window);
        } catch (RuntimeException e) {
            log.error("rate limiting failed for bucket {}; request allowed", bucket, e);
            degraded(bucket, "error");
            return true;
        }
        var seconds = Math.max(decision.allowed() ? 0 : 1, ceilSeconds(decision.resetAfter()));
        response.setHeader("RateLimit-Policy", "\"%s\";q=%d;w=%d".formatted(bucket, limit, window.toSeconds()));
        if (decision.tracked()) {
            // Untracked (fail-open) decisions know nothing about the remaining quota: no guess is sent.
            response.setHeader("RateLimit", "\"%s\";r=%d;t=%d".formatted(bucket, decision.remaining(), seconds));
        }
        if (decision.allowed()) {
            return true;
        }
        meters.increment(MeterNames.RATE_LIMIT_REJECTED, Map.of("bucket", bucket));
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        var message = rateLimit.message().isBlank() ? ErrorCode.RATE_LIMITED.defaultMessage() : rateLimit.message();
        responses.writeError(request, response, ErrorCode.RATE_LIMITED, message, Map.of("retryAfterSeconds", seconds));
        return false;
    }

    private SlidingWindowLimiter.Decision acquire(String bucket, Subject subject, int limit, Duration window) {
        var key = bucket + ":" + subject.key();
        if (settings.rateLimitScope().value() == RateLimitScope.CLUSTER) {
            if (clusterLimits == null) {
                degraded(bucket, "cluster_missing");
            } else {
                var outcome = clusterCalls.call(() -> clusterLimits.tryAcquire(key, limit, window));
                if (outcome instanceof TimeBoxedCalls.Outcome.Done<ClusterRateLimits.Decision>(var shared) && shared != null) {
                    var retryAfter = shared.retryAfter() == null ? Duration.ZERO : shared.retryAfter();
                    return new SlidingWindowLimiter.Decision(shared.allowed(), Math.max(0, shared.remaining()), retryAfter, true);
                }
                if (outcome instanceof TimeBoxedCalls.Outcome.Failed<ClusterRateLimits.Decision>(var reason, var cause)) {
                    log.warn("cluster rate limit store failed ({}) for bucket {}; limited by this instance", reason, bucket, cause);
                } else {
                    log.warn("cluster rate limit store answered null for bucket {}; limited by this instance", bucket);
                }
                // A failing, slow or saturated store (bulkhead full) is never "allow": this instance's own limiter decides,
                // so one caller with many requests in flight still gets at most its quota per instance.
                degraded(bucket, "cluster_error");
            }
        }
        var decision = localLimiter.tryAcquire(key, bucket, subject.kind(), limit, window);
        if (!decision.tracked()) {
            degraded(bucket, "capacity");
        }
        return decision;
    }

    /** Whose quota an attempt counts against: the person, else the client address (IPv6 by its /64). */
    private record Subject(String key, SlidingWindowLimiter.Kind kind) {}

    private Subject subject(HttpServletRequest request) {
        return identities.current(request).readable()
                .map(identity -> new Subject(identity.account(), SlidingWindowLimiter.Kind.IDENTITY))
                .orElseGet(() -> new Subject("ip:" + IpAddresses.rateLimitGroup(proxies.clientAddress(request)),
                        SlidingWindowLimiter.Kind.ADDRESS));
    }

    private void degraded(String bucket, String reason) {
        meters.increment(MeterNames.RATE_LIMIT_DEGRADED, Map.of("bucket", bucket, "reason", reason));
    }

    @Override
    public void close() {
        clusterCalls.close();
    }

    private static long ceilSeconds(Duration duration) {
        var millis = duration.toMillis();
        return millis <= 0 ? 0 : (millis + 999) / 1000;
    }
}
