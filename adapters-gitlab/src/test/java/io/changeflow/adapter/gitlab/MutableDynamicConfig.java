package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.DynamicConfig;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The configuration center in memory: tests change a key and the next read sees it, as with hot reload. */
final class MutableDynamicConfig implements DynamicConfig {

    private final Map<String, String> values = new ConcurrentHashMap<>();

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    void set(String key, String value) {
        if (value == null) {
            values.remove(key);
        } else {
            values.put(key, value);
        }
    }
}
