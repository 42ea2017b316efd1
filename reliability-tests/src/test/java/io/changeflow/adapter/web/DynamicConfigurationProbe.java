package io.changeflow.adapter.web;

import io.changeflow.adapter.web.api.RequestsController;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.guard.RateLimit;
import io.changeflow.adapter.web.guard.RateLimitInterceptor;
import io.changeflow.adapter.web.guard.SlidingWindowLimiter;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.Cidr;
import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.local.FileDynamicConfig;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.settings.Settings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web adapter's real configuration-reading path, in process, for the misconfiguration suite (this
 * class sits in the adapter's package to reach its package-private classes; it is test code of the
 * reliability module only): a dynamic configuration file read by {@link FileDynamicConfig} (with a
 * generated Environment behind it), resolved by {@link Settings}, the access decision of
 * {@link AccessGate}, and the {@link RateLimitInterceptor} in front of the submit endpoint's handler
 * method ({@code RequestsController}'s {@code @RateLimit} method) with a real {@link SlidingWindowLimiter}.
 */
public final class DynamicConfigurationProbe implements AutoCloseable {

    /** What one configuration (file plus Environment) does. */
    public record Outcome(Optional<String> accessRaw, String accessMode, boolean accessOpen, Optional<String> limitRaw,
                          String limit, int allowed, int sent, boolean approveFirst, int approvalMaxRetries,
                          long windowSeconds, String scope) {}

    private static final Method SUBMIT = Arrays.stream(RequestsController.class.getDeclaredMethods())
            .filter(m -> m.isAnnotationPresent(RateLimit.class)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no @RateLimit method on RequestsController"));

    private final TrustedProxies proxies = new TrustedProxies(List.of(Cidr.parse("127.0.0.0/8")));
    private final CallerIdentity identities = new CallerIdentity(proxies, employeeId -> Optional.empty(), false, java.util.Set.of());
    private final SafeMeters meters = new SafeMeters(new SimpleMeterRegistry());
    private final JsonResponses responses = new JsonResponses(JsonMapper.builder().build());
    private final TimeBoxedCalls clusterCalls = new TimeBoxedCalls("probe-cluster-rate-limit", 1, 1, Duration.ofMillis(500));
    private final HandlerMethod handler = new HandlerMethod(new Object(), SUBMIT);

    /** The submit endpoint's default limit, as its annotation declares it. */
    public static int annotatedDefaultLimit() {
        return SUBMIT.getAnnotation(RateLimit.class).defaultLimit();
    }

    /**
     * Reads {@code file} (any bytes, or missing, or a directory) with {@code environment} behind it, at
     * {@code now}, and sends {@code submissions} submissions of one person through the rate limiter.
     */
    public Outcome evaluate(Path file, Map<String, Object> environment, Instant now, int submissions) throws Exception {
        var env = new StandardEnvironment();
        env.getPropertySources().stream().map(s -> s.getName()).toList().forEach(env.getPropertySources()::remove);
        env.getPropertySources().addFirst(new MapPropertySource("generated", environment));
        try (var config = new FileDynamicConfig(file, env, Duration.ofSeconds(2), "")) {
            config.refresh();
            var settings = new Settings(config);
            var clock = Clock.fixed(now, ZoneOffset.UTC);
            var open = new AccessGate(settings, clock).isOpen();
            var limiter = new SlidingWindowLimiter(clock, 1000);
            var interceptor = new RateLimitInterceptor(settings, limiter, null, clusterCalls, identities, proxies, meters, responses);
            var allowed = 0;
            for (var i = 0; i < submissions; i++) {
                var request = new MockHttpServletRequest("POST", "/api/requests");
                request.setRemoteAddr("127.0.0.1");
                request.addHeader("X-Forwarded-User", "alice");
                if (interceptor.preHandle(request, new MockHttpServletResponse(), handler)) {
                    allowed++;
                }
            }
            var limit = settings.rateLimit(Settings.APPLY_RATE_LIMIT, annotatedDefaultLimit()).value();
            return new Outcome(config.get(Settings.ACCESS_MODE), settings.accessMode().value().name(), open,
                    config.get(Settings.APPLY_RATE_LIMIT), limit.isPresent() ? Integer.toString(limit.getAsInt()) : "none",
                    allowed, submissions, settings.approveFirst().value(), settings.approvalMaxRetries().value(),
                    settings.rateLimitWindow().value().toSeconds(), settings.rateLimitScope().value().name());
        }
    }

    @Override
    public void close() {
        clusterCalls.close();
    }
}
