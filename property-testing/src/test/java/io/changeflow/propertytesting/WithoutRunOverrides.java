package io.changeflow.propertytesting;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Clears the run's overrides ({@code -Dproperty.seed}, {@code -Dproperty.tries}) before every test, so the test sees
 * the defaults, and puts them back as they were after it (cleared again when there were none).
 */
final class WithoutRunOverrides implements BeforeEachCallback, AfterEachCallback {

    private static final List<String> KEYS = List.of("property.seed", "property.tries");

    private final Map<String, String> before = new HashMap<>();

    @Override
    public void beforeEach(ExtensionContext context) {
        for (var key : KEYS) {
            before.put(key, System.clearProperty(key));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (var key : KEYS) {
            var value = before.get(key);
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        }
    }
}
