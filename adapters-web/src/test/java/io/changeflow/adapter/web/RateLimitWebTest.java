package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.TrustedProxies;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import io.changeflow.adapter.web.metrics.MeterNames;
import java.time.Duration;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

class RateLimitWebTest extends WebTestSupport {

    private static final String BODY = "{\"operationId\":\"2f0c7f4e-2a51-4d6a-9a57-1f7c3c1d2b11\",\"targetKey\":\"db-prod-readonly\"}";

    private static MockHttpServletRequestBuilder submit() {
        return post("/test/submit").contentType(MediaType.APPLICATION_JSON).content(BODY);
    }

    /** A submission from {@code peerAddress} naming the hops {@code forwardedFor}. */
    private static MockHttpServletRequestBuilder forwarded(String peerAddress, String forwardedFor) {
        return submit().with(peer(peerAddress)).header(TrustedProxies.FORWARDED_FOR, forwardedFor);
    }

    /** Spends the quota of three submissions, every one accepted; {@code request} makes the i-th. */
    private void spendTheQuota(IntFunction<MockHttpServletRequestBuilder> request) throws Exception {
        for (var i = 0; i < 3; i++) {
            mvc.perform(request.apply(i)).andExpect(status().isAccepted());
        }
    }

    @Test
    void aDuplicateOverQuotaGets429WithTheEnvelopeAndIetfHeaders() throws Exception {
        for (var remaining = 2; remaining >= 0; remaining--) {
            mvc.perform(as(submit(), "alice"))
                    .andExpect(status().isAccepted())
                    .andExpect(header().string("RateLimit-Policy", "\"apply\";q=3;w=60"))
                    .andExpect(header().string("RateLimit", "\"apply\";r=" + remaining + ";t=60"));
        }
        mvc.perform(as(submit(), "alice"))
                .andExpect(answers(status().isTooManyRequests(), "RATE_LIMITED"))
                .andExpect(jsonPath("$.message").value("Too many submissions, please try again later"))
                .andExpect(jsonPath("$.data.retryAfterSeconds").value(60))
                .andExpect(jsonPath("$.traceId").isNotEmpty())
                .andExpect(header().string("Retry-After", "60"))
                .andExpect(header().string("RateLimit-Policy", "\"apply\";q=3;w=60"))
                .andExpect(header().string("RateLimit", "\"apply\";r=0;t=60"));
        assertThat(registry.count(MeterNames.RATE_LIMIT_REJECTED, "bucket", "apply")).isEqualTo(1);
    }

    @Test
    void ipv6ClientsOfOneSlash64ShareOneQuota() throws Exception {
        spendTheQuota(i -> forwarded("10.9.0.1", "2001:db8:7:1::" + Integer.toHexString(i + 1)));
        mvc.perform(forwarded("10.9.0.1", "2001:db8:7:1:ffff:1:2:3"))
                .andExpect(status().isTooManyRequests());
        mvc.perform(forwarded("10.9.0.1", "2001:db8:7:2::1"))
                .andExpect(status().isAccepted());
    }

    @Test
    void theWindowSlidesAndRetryAfterCountsDownToTheOldestAttempt() throws Exception {
        mvc.perform(as(submit(), "alice")).andExpect(status().isAccepted());
        clock.advance(Duration.ofSeconds(20));
        mvc.perform(as(submit(), "alice")).andExpect(status().isAccepted());
        mvc.perform(as(submit(), "alice")).andExpect(status().isAccepted());
        clock.advance(Duration.ofSeconds(30));
        mvc.perform(as(submit(), "alice")).andExpect(status().isTooManyRequests()).andExpect(header().string("Retry-After", "10"));
        clock.advance(Duration.ofSeconds(10));
        mvc.perform(as(submit(), "alice")).andExpect(status().isAccepted());
    }

    @Test
    void theLimitIsReadOnEveryRequestSoAnEditAppliesAtOnce() throws Exception {
        writeConfig("APPLY_RATE_LIMIT=1\n");
        mvc.perform(as(submit(), "bob")).andExpect(status().isAccepted());
        mvc.perform(as(submit(), "bob")).andExpect(status().isTooManyRequests());
        writeConfig("APPLY_RATE_LIMIT=5\n");
        mvc.perform(as(submit(), "bob")).andExpect(status().isAccepted()).andExpect(header().string("RateLimit-Policy", "\"apply\";q=5;w=60"));
    }

    @Test
    void aClearedZeroNegativeOrUnparsableLimitMeansNoLimiting() throws Exception {
        for (var config : new String[] {"APPLY_RATE_LIMIT=0\n", "APPLY_RATE_LIMIT=-3\n", "APPLY_RATE_LIMIT=ten\n", "APPLY_RATE_LIMIT=1O\n"}) {
            writeConfig(config);
            for (var i = 0; i < 8; i++) {
                mvc.perform(as(submit(), "carol")).andExpect(status().isAccepted()).andExpect(header().doesNotExist("RateLimit"));
            }
        }
        writeConfig("APPLY_RATE_LIMIT=\n");
        spendTheQuota(i -> as(submit(), "dave"));
        mvc.perform(as(submit(), "dave")).andExpect(status().isTooManyRequests());
    }

    @Test
    void theWindowLengthIsConfigurableAndFallsBackTo60() throws Exception {
        writeConfig("ratelimit.windowSeconds=10\n");
        spendTheQuota(i -> as(submit(), "erin"));
        mvc.perform(as(submit(), "erin")).andExpect(status().isTooManyRequests())
                .andExpect(header().string("RateLimit-Policy", "\"apply\";q=3;w=10"))
                .andExpect(header().string("Retry-After", "10"));
        writeConfig("ratelimit.windowSeconds=soon\n");
        mvc.perform(as(submit(), "frank")).andExpect(header().string("RateLimit-Policy", "\"apply\";q=3;w=60"));
    }

    @Test
    void onePersonHasOneQuotaHoweverTheLoginProxySpellsThem() throws Exception {
        mvc.perform(as(submit(), "alice")).andExpect(status().isAccepted());
        mvc.perform(submit().header(CallerIdentity.EMAIL_HEADER, "Alice@corp.example")).andExpect(status().isAccepted());
        mvc.perform(as(submit(), "E1001")).andExpect(status().isAccepted());
        mvc.perform(as(submit(), "ALICE")).andExpect(status().isTooManyRequests());
    }

    @Test
    void anonymousCallersAreLimitedPerClientAddressNotInASharedBucket() throws Exception {
        spendTheQuota(i -> submit().with(peer("203.0.113.10")));
        mvc.perform(submit().with(peer("203.0.113.10"))).andExpect(status().isTooManyRequests());
        mvc.perform(submit().with(peer("203.0.113.11"))).andExpect(status().isAccepted());
    }

    @Test
    void aForgedFirstHopOfXForwardedForIsIgnored() throws Exception {
        spendTheQuota(i -> forwarded("10.9.0.1", "6.6.6." + i + ", 198.51.100.20"));
        mvc.perform(forwarded("10.9.0.1", "7.7.7.7, 198.51.100.20"))
                .andExpect(status().isTooManyRequests());
        mvc.perform(forwarded("10.9.0.1", "7.7.7.7, 198.51.100.21"))
                .andExpect(status().isAccepted());
    }

    @Test
    void xForwardedForFromAnUntrustedPeerIsIgnoredEntirely() throws Exception {
        spendTheQuota(i -> forwarded("203.0.113.50", "198.51.100." + i));
        mvc.perform(forwarded("203.0.113.50", "198.51.100.99"))
                .andExpect(status().isTooManyRequests());
    }

    @Test
    void identityHeadersFromAnUntrustedPeerDoNotNameTheCaller() throws Exception {
        spendTheQuota(i -> as(submit(), "user" + i).with(peer("203.0.113.60")));
        mvc.perform(as(submit(), "someone-else").with(peer("203.0.113.60"))).andExpect(status().isTooManyRequests());
    }

    @Test
    void clusterScopeCountsInTheSharedStore() throws Exception {
        writeConfig("ratelimit.scope=cluster\n");
        spendTheQuota(i -> as(submit(), "grace"));
        mvc.perform(as(submit(), "grace")).andExpect(status().isTooManyRequests()).andExpect(header().exists("Retry-After"));
        assertThat(clusterLimits.calls.get()).isEqualTo(4);
    }

    @Test
    void aThrowingClusterStoreFallsBackToTheLocalLimiterAndCountsIt() throws Exception {
        writeConfig("ratelimit.scope=CLUSTER\n");
        clusterLimits.failure = new IllegalStateException("database down");
        spendTheQuota(i -> as(submit(), "heidi"));
        for (var i = 0; i < 3; i++) {
            mvc.perform(as(submit(), "heidi")).andExpect(status().isTooManyRequests());
        }
        assertThat(registry.count(MeterNames.RATE_LIMIT_DEGRADED, "bucket", "apply", "reason", "cluster_error")).isEqualTo(6);
    }

    @Test
    void aSlowClusterStoreFallsBackToTheLocalLimiterAfterItsDeadline() throws Exception {
        writeConfig("ratelimit.scope=cluster\n");
        clusterLimits.delay = Duration.ofSeconds(3);
        var started = System.nanoTime();
        mvc.perform(as(submit(), "ivan")).andExpect(status().isAccepted());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
        assertThat(registry.count(MeterNames.RATE_LIMIT_DEGRADED, "bucket", "apply", "reason", "cluster_error")).isEqualTo(1);
    }

    @Test
    void manyRequestsInFlightAgainstASlowStoreFillItsBulkheadAndStillGetOnlyTheQuota() throws Exception {
        writeConfig("ratelimit.scope=cluster\n");
        clusterLimits.delay = Duration.ofSeconds(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(24);
        try {
            var answers = new java.util.ArrayList<java.util.concurrent.Future<Integer>>();
            for (var i = 0; i < 24; i++) {
                answers.add(pool.submit(() -> mvc.perform(as(submit(), "nina")).andReturn().getResponse().getStatus()));
            }
            var accepted = 0;
            for (var answer : answers) {
                accepted += answer.get() == 202 ? 1 : 0;
            }
            assertThat(accepted).as("a full bulkhead (4 running, 16 queued) is never \"allow\"").isEqualTo(3);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUnknownScopeMeansLocal() throws Exception {
        writeConfig("ratelimit.scope=global\n");
        mvc.perform(as(submit(), "judy")).andExpect(status().isAccepted());
        assertThat(clusterLimits.calls.get()).isZero();
    }

    @Test
    void aLegacyRawMapEndpointIsLimitedWithoutChangingItsShape() throws Exception {
        mvc.perform(as(post("/legacy/apply"), "ken"))
                .andExpect(status().isOk())
                .andExpect(content().json("{\"accepted\":true}", org.springframework.test.json.JsonCompareMode.STRICT));
        mvc.perform(as(post("/legacy/apply"), "ken")).andExpect(status().isOk());
        mvc.perform(as(post("/legacy/apply"), "ken"))
                .andExpect(answers(status().isTooManyRequests(), "RATE_LIMITED"));
    }

    @Test
    void rateLimitedRequestsNeverEnterTheBusinessCounts() throws Exception {
        for (var i = 0; i < 5; i++) {
            mvc.perform(as(submit(), "laura"));
        }
        var activity = new String[] {"activity", "POST /test/submit"};
        assertThat(registry.count(BusinessActivityInterceptor.RECEIVED, activity)).isEqualTo(3);
        assertThat(registry.count(BusinessActivityInterceptor.SUCCEEDED, activity)).isEqualTo(3);
        assertThat(registry.count(MeterNames.RATE_LIMIT_REJECTED, "bucket", "apply")).isEqualTo(2);
    }

    @Test
    void aMalformedBodyOverQuotaIs429BecauseLimitingRunsBeforeBinding() throws Exception {
        spendTheQuota(i -> as(submit(), "mallory"));
        mvc.perform(as(post("/test/submit").contentType(MediaType.APPLICATION_JSON).content("{not json"), "mallory"))
                .andExpect(status().isTooManyRequests());
    }
}
