package io.changeflow.domain.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A setting's text as configured, or missing when the key is not set: what the resolvers of this package
 * read ({@link AccessMode#resolve}, {@link TestWindow#resolve}, ...), each with its fail-safe fallback.
 *
 * @param text the text as configured, empty when the key is missing
 */
public record RawValue(Optional<String> text) {

    public RawValue {
        Objects.requireNonNull(text, "text");
    }

    /** A configured text (possibly blank). */
    public static RawValue of(String text) {
        return new RawValue(Optional.of(text));
    }

    /** The key is not set. */
    public static RawValue missing() {
        return new RawValue(Optional.empty());
    }

    /** Missing, or only whitespace: the resolvers' "missing" rule applies. */
    boolean isBlank() {
        return text.isEmpty() || text.get().isBlank();
    }

    /** The configured text; only after {@link #isBlank()} said it is there. */
    String get() {
        return text.orElseThrow();
    }
}
