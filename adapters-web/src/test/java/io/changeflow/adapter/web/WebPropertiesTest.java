package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** Start-up settings that bound memory fall back to their default when missing, garbled, zero or negative. */
class WebPropertiesTest {

    @Test
    void aGarbledZeroOrNegativeKeyCapIsTheDefaultNeverUnboundedNorAFailedStart() {
        for (var value : new String[] {"", "abc", "0", "-5", "1e9", " "}) {
            var environment = new MockEnvironment().withProperty("changeflow.ratelimit.max-keys", value)
                    .withProperty("changeflow.ratelimit.max-address-keys", value);
            var properties = WebProperties.load(environment);
            assertThat(properties.rateLimitMaxKeys()).as(value).isEqualTo(50_000);
            assertThat(properties.rateLimitMaxAddressKeys()).as(value).isEqualTo(50_000);
        }
        var set = WebProperties.load(new MockEnvironment().withProperty("changeflow.ratelimit.max-address-keys", " 200 "));
        assertThat(set.rateLimitMaxAddressKeys()).isEqualTo(200);
    }

    @Test
    void identityAndMonitoringSettingsDefaultToTheClosedValue() {
        var properties = WebProperties.load(new MockEnvironment());
        assertThat(properties.emailDomains()).isEmpty();
        assertThat(properties.allowedOrigins()).isEmpty();
        assertThat(properties.monitoringRuleCodes()).containsExactly("ops.operator", "ops.admin");
        var cleared = WebProperties.load(new MockEnvironment().withProperty("changeflow.monitoring.rule-codes", " , "));
        assertThat(cleared.monitoringRuleCodes()).as("set but empty: nobody").isEmpty();
    }
}
