package io.changeflow.domain.config;

import static io.changeflow.domain.config.ResolvedAssertions.assertResolved;
import static io.changeflow.domain.config.ResolvedAssertions.raw;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitScopeTest {

    private static Resolved<RateLimitScope> resolve(String raw) {
        return RateLimitScope.resolve(raw(raw));
    }

    @Test
    void missingMeansLocal() {
        var resolved = resolve(null);
        assertResolved(resolved, RateLimitScope.LOCAL, "missing: LOCAL");
        assertThat(resolved.raw()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t", " \r\n "})
    void blankMeansLocal(String raw) {
        assertResolved(resolve(raw), RateLimitScope.LOCAL, "missing: LOCAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster", "CLUSTER", " Cluster ", "\tcLuStEr\n", "\u2003cluster\u3000"})
    void readsClusterTrimmedInAnyCase(String raw) {
        assertResolved(resolve(raw), RateLimitScope.CLUSTER, "configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "LOCAL", " Local "})
    void readsLocal(String raw) {
        assertResolved(resolve(raw), RateLimitScope.LOCAL, "configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustr", "global", "shared", "cluster-wide", "CLUSTER_", "c luster", "ＣＬＵＳＴＥＲ", "\u200bcluster",
            "clu\u017Fter", "CLU\u017FTER",
            "cluster\u00a0", "1", "true"})
    void anythingUnknownIsLocal(String raw) {
        assertResolved(resolve(raw), RateLimitScope.LOCAL, "unknown value: LOCAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster\u0000", "\u0000cluster", "clu\u0000ster", "\u001ccluster", "cluster\u001f", "cluster\u007f",
            "\u000bcluster\f", "cluster\u0085"})
    void controlCharactersAreLocalNeverCluster(String raw) {
        assertResolved(resolve(raw), RateLimitScope.LOCAL, "control characters: LOCAL");
    }
}
