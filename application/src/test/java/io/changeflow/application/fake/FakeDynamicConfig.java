package io.changeflow.application.fake;

import io.changeflow.application.port.out.DynamicConfig;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link DynamicConfig} as a map tests change at any time (hot reload). */
public final class FakeDynamicConfig implements DynamicConfig {

    private final Map<String, String> values = new ConcurrentHashMap<>();

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    public FakeDynamicConfig set(String key, String value) {
        values.put(key, value);
        return this;
    }

    public FakeDynamicConfig remove(String key) {
        values.remove(key);
        return this;
    }
}
