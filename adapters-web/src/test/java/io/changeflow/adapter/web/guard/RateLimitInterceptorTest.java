package io.changeflow.adapter.web.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.FaultyMeterRegistry;
import io.changeflow.application.fake.SettableClock;
import io.changeflow.adapter.web.ResponseCorpus;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.settings.Settings;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import tools.jackson.databind.json.JsonMapper;

class RateLimitInterceptorTest {

    static class Handler {
        @RateLimit(bucket = "apply", limitKey = "APPLY_RATE_LIMIT", defaultLimit = 1)
        void limited() {
        }
    }

    private final FaultyMeterRegistry registry = new FaultyMeterRegistry();

    private RateLimitInterceptor interceptor(Clock clock) {
        var config = (io.changeflow.application.port.out.DynamicConfig) key -> Optional.empty();
        var proxies = TrustedProxies.parse(List.of("127.0.0.0/8"));
        return new RateLimitInterceptor(new Settings(config), new SlidingWindowLimiter(clock, 10),
                null, new TimeBoxedCalls("test", 1, 1, Duration.ofMillis(100)),
                new CallerIdentity(proxies, id -> Optional.empty(), false, java.util.Set.of()), proxies, new SafeMeters(registry),
                new JsonResponses(JsonMapper.builder().build()));
    }

    private static HandlerMethod handler() throws NoSuchMethodException {
        Method method = Handler.class.getDeclaredMethod("limited");
        return new HandlerMethod(new Handler(), method);
    }

    @Test
    void anUnexpectedFailureInsideTheLimiterAllowsTheRequestAndCountsIt() throws Exception {
        var broken = new java.util.concurrent.atomic.AtomicBoolean();
        var brokenClock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneId.of("UTC");
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                if (broken.get()) {
                    throw new IllegalStateException("clock broken");
                }
                return Instant.EPOCH;
            }
        };
        try (var interceptor = interceptor(brokenClock)) {
            broken.set(true);
            var response = new MockHttpServletResponse();
            for (var i = 0; i < 3; i++) {
                assertThat(interceptor.preHandle(new MockHttpServletRequest(), response, handler())).isTrue();
            }
            assertThat(response.getStatus()).isEqualTo(200);
        }
        assertThat(registry.count(MeterNames.RATE_LIMIT_DEGRADED, "bucket", "apply", "reason", "error")).isEqualTo(3);
    }

    @Test
    void clusterScopeWithoutAStoreLimitsLocallyAndCountsIt() throws Exception {
        var config = (io.changeflow.application.port.out.DynamicConfig) key ->
                key.equals(Settings.RATE_LIMIT_SCOPE) ? Optional.of("cluster") : Optional.empty();
        var proxies = TrustedProxies.parse(List.of("127.0.0.0/8"));
        try (var interceptor = new RateLimitInterceptor(new Settings(config), new SlidingWindowLimiter(new SettableClock(Instant.EPOCH), 10), null,
                new TimeBoxedCalls("test", 1, 1, Duration.ofMillis(100)), new CallerIdentity(proxies, id -> Optional.empty(), false, java.util.Set.of()),
                proxies, new SafeMeters(registry), new JsonResponses(JsonMapper.builder().build()))) {
            assertThat(interceptor.preHandle(new MockHttpServletRequest(), new MockHttpServletResponse(), handler())).isTrue();
            var refused = new MockHttpServletResponse();
            assertThat(interceptor.preHandle(new MockHttpServletRequest(), refused, handler())).isFalse();
            ResponseCorpus.record("direct 429", refused.getContentAsString());
            assertThat(refused.getStatus()).isEqualTo(429);
        }
        assertThat(registry.count(MeterNames.RATE_LIMIT_DEGRADED, "bucket", "apply", "reason", "cluster_missing")).isEqualTo(2);
    }
}
