package io.changeflow.application.port.out;

import java.util.Optional;

/**
 * The configuration center, with hot reload: every read sees the current value, so a change applies
 * without a restart. Values are raw text; the domain's parsers resolve them with their fallbacks.
 * Never throws: an unreadable source reads as "missing".
 */
public interface DynamicConfig {

    /** The raw value of {@code key}, empty when missing. */
    Optional<String> get(String key);
}
