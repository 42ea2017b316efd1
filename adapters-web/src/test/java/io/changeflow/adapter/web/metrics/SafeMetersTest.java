package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.FaultyMeterRegistry;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SafeMetersTest {

    private final FaultyMeterRegistry registry = new FaultyMeterRegistry();
    private final SafeMeters meters = new SafeMeters(registry);

    @Test
    void tagValuesAreTrimmedAndTruncatedTo128Characters() {
        meters.increment("m", Map.of("user", "  " + "a".repeat(300) + " "));
        assertThat(registry.find("m").counter().getId().getTag("user")).hasSize(SafeMeters.MAX_TAG_LENGTH);
    }

    @Test
    void aMissingBlankOrInvalidTagSkipsTheWholeEmission() {
        var withNull = new HashMap<String, String>();
        withNull.put("user", null);
        meters.increment("m", withNull);
        meters.increment("m", Map.of("user", "   "));
        meters.increment("m", Map.of("user", "line\nbreak"));
        meters.record("t", Map.of("uri", ""), 1_000);
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void aThrowingRegistryIsSwallowed() {
        registry.faulty = true;
        meters.increment("m", Map.of("user", "alice"));
        meters.record("t", Map.of("uri", "/x"), 1_000);
        assertThat(registry.getMeters()).isEmpty();
    }
}
