package io.changeflow.domain.config;

import java.util.Optional;
import java.util.function.Function;

/**
 * The fail-safe reading of a setting that names one of a few keywords (modes, scopes, switches): missing or
 * blank gives the "missing" value; control characters or an unknown keyword give the fallback. The text is
 * compared as a {@link ConfigText#keyword} (trimmed, upper-case ASCII).
 *
 * @param named        the value an upper-case keyword names, empty for none
 * @param missing      the value of a missing or blank setting
 * @param missingName  how the rule names it ({@code "missing: " + missingName})
 * @param fallback     the value of a setting with control characters or an unknown keyword
 * @param fallbackName how the rules name it ({@code "control characters: "}, {@code "unknown value: "} before it)
 */
record KeywordSetting<T>(Function<String, Optional<T>> named, T missing, String missingName, T fallback,
                         String fallbackName) {

    /** A setting whose keywords are the constant names of {@code values}; missing, garbled or unknown: {@code fallback}. */
    static <E extends Enum<E>> KeywordSetting<E> ofConstants(E[] values, E fallback) {
        return new KeywordSetting<>(constantNamed(values), fallback, fallback.name(), fallback, fallback.name());
    }

    /** The constant of {@code values} whose name a keyword is. */
    static <E extends Enum<E>> Function<String, Optional<E>> constantNamed(E[] values) {
        return keyword -> {
            for (var value : values) {
                if (value.name().equals(keyword)) {
                    return Optional.of(value);
                }
            }
            return Optional.empty();
        };
    }

    Resolved<T> resolve(RawValue raw) {
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), missing, "missing: " + missingName);
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw.text(), fallback, "control characters: " + fallbackName);
        }
        return named.apply(ConfigText.keyword(raw.get()))
                .map(value -> new Resolved<>(raw.text(), value, "configured"))
                .orElseGet(() -> new Resolved<>(raw.text(), fallback, "unknown value: " + fallbackName));
    }
}
