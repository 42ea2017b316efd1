package io.changeflow.adapter.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class LocalPropertiesTest {

    @Test
    void identitySettingsDefaultToTheClosedValue() {
        var properties = LocalProperties.load(new MockEnvironment());
        assertThat(properties.directoryLocation()).isEmpty();
    }
}
