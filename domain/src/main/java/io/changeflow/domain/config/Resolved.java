package io.changeflow.domain.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A configuration value as resolved from its raw text, with the rule that produced it, so operators
 * can see at a glance why a setting behaves as it does.
 *
 * @param raw   the text as configured, empty when the key is missing
 * @param value the value in effect
 * @param rule  which rule applied, e.g. "missing: default TEST_WINDOW" or "invalid: CLOSED"
 */
public record Resolved<T>(Optional<String> raw, T value, String rule) {

    public Resolved {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(rule, "rule");
    }
}
