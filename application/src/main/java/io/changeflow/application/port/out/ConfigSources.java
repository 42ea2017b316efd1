package io.changeflow.application.port.out;

import java.util.Optional;

/**
 * Where the {@link DynamicConfig} finds each key, for the operators' view of the settings
 * ({@code GET /ops/config}). Never throws.
 */
public interface ConfigSources {

    /** The name of the source that answers {@code key} now (e.g. {@code file}, {@code environment}); empty when missing. */
    Optional<String> sourceOf(String key);
}
