package io.changeflow.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitScopeTest {

    private static Resolved<RateLimitScope> resolve(String raw) {
        return RateLimitScope.resolve(new RawValue(Optional.ofNullable(raw)));
    }

    @Test
    void missingMeansLocal() {
        var resolved = resolve(null);
        assertThat(resolved.value()).isEqualTo(RateLimitScope.LOCAL);
        assertThat(resolved.raw()).isEmpty();
        assertThat(resolved.rule()).isEqualTo("missing: LOCAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t", " \r\n "})
    void blankMeansLocal(String raw) {
        assertThat(resolve(raw).value()).isEqualTo(RateLimitScope.LOCAL);
        assertThat(resolve(raw).rule()).isEqualTo("missing: LOCAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster", "CLUSTER", " Cluster ", "\tcLuStEr\n", "\u2003cluster\u3000"})
    void readsClusterTrimmedInAnyCase(String raw) {
        var resolved = resolve(raw);
        assertThat(resolved.value()).isEqualTo(RateLimitScope.CLUSTER);
        assertThat(resolved.rule()).isEqualTo("configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "LOCAL", " Local "})
    void readsLocal(String raw) {
        var resolved = resolve(raw);
        assertThat(resolved.value()).isEqualTo(RateLimitScope.LOCAL);
        assertThat(resolved.rule()).isEqualTo("configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustr", "global", "shared", "cluster-wide", "CLUSTER_", "c luster", "ＣＬＵＳＴＥＲ", "\u200bcluster",
            "clu\u017Fter", "CLU\u017FTER",
            "cluster\u00a0", "1", "true"})
    void anythingUnknownIsLocal(String raw) {
        var resolved = resolve(raw);
        assertThat(resolved.value()).isEqualTo(RateLimitScope.LOCAL);
        assertThat(resolved.rule()).isEqualTo("unknown value: LOCAL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster\u0000", "\u0000cluster", "clu\u0000ster", "\u001ccluster", "cluster\u001f", "cluster\u007f",
            "\u000bcluster\f", "cluster\u0085"})
    void controlCharactersAreLocalNeverCluster(String raw) {
        var resolved = resolve(raw);
        assertThat(resolved.value()).isEqualTo(RateLimitScope.LOCAL);
        assertThat(resolved.rule()).isEqualTo("control characters: LOCAL");
    }
}
