package io.changeflow.adapter.web.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogValuesTest {

    @Test
    void controlCharactersAndLineSeparatorsAreWrittenAsVisibleEscapes() {
        assertThat(LogValues.escaped("op\r\n2026-12-07 INFO forged\u2028x\u2029y\u0085z\u0000\u202e\t"))
                .isEqualTo("op\\r\\n2026-12-07 INFO forged\\u2028x\\u2029y\\u0085z\\u0000\\u202e\\t")
                .doesNotContain("\n", "\r", "\u2028");
        assertThat(LogValues.escaped("Zoë 田中 /ops/operations/1")).isEqualTo("Zoë 田中 /ops/operations/1");
        assertThat(LogValues.escaped(null)).isEqualTo("null");
    }
}
