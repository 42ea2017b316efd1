package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code ratelimit.scope=cluster}: one person's quota is one quota however the load balancer spreads the
 * submissions over the instances; with {@code local} every instance counts its own. Both switched at
 * runtime through the dynamic configuration file, no restart.
 */
class ClusterRateLimitSystemTest {

    private static final int LIMIT = 4;
    private static final int ATTEMPTS = 10;

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(2 * ATTEMPTS)
            // the store's deadline (500 ms by default, then this instance's own limiter decides: adapters-web's
            // RateLimitWebTest) is widened so a loaded CI machine tests the sharing, not the local fallback
            .withInstanceProperty("changeflow.ratelimit.cluster-timeout", "10s")
            .withInstances("a", "b");

    @Test
    void aClusterQuotaIsSharedByEveryInstanceAndALocalOneIsCountedPerInstance() {
        cluster.writeDynamicConfig(Map.of("APPLY_RATE_LIMIT", String.valueOf(LIMIT), "ratelimit.scope", "cluster",
                "ratelimit.windowSeconds", "3600"));
        awaitOnBothInstances("APPLY_RATE_LIMIT", String.valueOf(LIMIT));
        awaitOnBothInstances("ratelimit.scope", "cluster");
        var shared = alternate("carol", 0);

        assertThat(shared.values().stream().filter(s -> s == 202).count()).as("accepted across both instances: " + shared)
                .isEqualTo(LIMIT);
        assertThat(shared.values().stream().filter(s -> s == 429).count()).isEqualTo(ATTEMPTS - LIMIT);

        cluster.writeDynamicConfig(Map.of("APPLY_RATE_LIMIT", String.valueOf(LIMIT), "ratelimit.scope", "local",
                "ratelimit.windowSeconds", "3600"));
        awaitOnBothInstances("ratelimit.scope", "local");
        awaitOnBothInstances("APPLY_RATE_LIMIT", String.valueOf(LIMIT));
        var perInstance = alternate("dave", ATTEMPTS);

        assertThat(perInstance.values().stream().filter(s -> s == 202).count()).as("each instance its own quota: " + perInstance)
                .isEqualTo(2 * LIMIT);
        Figures.record("rate limit APPLY_RATE_LIMIT=" + LIMIT + ", " + ATTEMPTS + " submissions alternating over two instances",
                "scope cluster: " + shared + "\nscope local: " + perInstance);
    }

    private static void awaitOnBothInstances(String key, String resolved) {
        for (var instance : new String[] {"a", "b"}) {
            var otto = cluster.client(instance, "otto");
            Poll.until(instance + ": /ops/config to resolve " + key + "=" + resolved, Duration.ofSeconds(15),
                    () -> otto.configEntry(key), e -> resolved.equalsIgnoreCase(e.path("resolved").asString("")));
        }
    }

    /** {@link #ATTEMPTS} submissions by {@code user}, alternating between the instances: attempt -> HTTP status. */
    private static Map<Integer, Integer> alternate(String user, int firstTarget) {
        var statuses = new TreeMap<Integer, Integer>();
        for (int i = 1; i <= ATTEMPTS; i++) {
            var instance = i % 2 == 0 ? "a" : "b";
            var response = cluster.client(instance, user).submit(InstanceSettings.plainTargetKey(firstTarget + i),
                    String.format("svc-%s-%02d", user, i), "rate limit");
            statuses.put(i, response.status());
            assertThat(response.status()).as(response.toString()).isIn(202, 429);
            if (response.status() == 429) {
                assertThat(response.code()).isEqualTo("RATE_LIMITED");
                assertThat(response.header("Retry-After")).isNotBlank();
            }
        }
        return statuses;
    }
}
