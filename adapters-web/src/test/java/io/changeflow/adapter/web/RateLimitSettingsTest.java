package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimitSettingsTest {

    private static RateLimitSettings with(String key, String value) {
        Map<String, String> values = new HashMap<>();
        if (value != null) {
            values.put(key, value);
        }
        return new RateLimitSettings(k -> Optional.ofNullable(values.get(k)));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "NULL, LOCAL, missing: LOCAL",
            "'  ', LOCAL, missing: LOCAL",
            "cluster, CLUSTER, configured",
            "' Cluster ', CLUSTER, configured",
            "local, LOCAL, configured",
            "clustr, LOCAL, unknown value: LOCAL"})
    void scopeFallsBackToLocal(String raw, RateLimitSettings.Scope expected, String rule) {
        var resolved = with(RateLimitSettings.SCOPE, raw).scope();
        assertThat(resolved.value()).isEqualTo(expected);
        assertThat(resolved.rule()).isEqualTo(rule);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "NULL, 60, missing: default 60",
            "30, 30, configured",
            "0, 60, not positive: default 60",
            "-5, 60, not positive: default 60",
            "1m, 60, unparsable: default 60",
            "86400, 3600, above the cap: 3600"})
    void windowFallsBackTo60AndIsCapped(String raw, long seconds, String rule) {
        var resolved = with(RateLimitSettings.WINDOW_SECONDS, raw).window();
        assertThat(resolved.value()).isEqualTo(Duration.ofSeconds(seconds));
        assertThat(resolved.rule()).isEqualTo(rule);
    }
}
