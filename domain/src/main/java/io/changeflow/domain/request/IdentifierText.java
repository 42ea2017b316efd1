package io.changeflow.domain.request;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/** How the text identifiers of this package ({@link OperationId}, {@link TargetKey}, {@link SubjectId}) read their text. */
final class IdentifierText {

    private IdentifierText() {
    }

    /** {@code value} when it matches {@code format}; else an {@link IllegalArgumentException} saying {@code rule}. */
    static String checked(String value, Pattern format, String rule) {
        Objects.requireNonNull(value, "value");
        if (!format.matcher(value).matches()) {
            throw new IllegalArgumentException(rule);
        }
        return value;
    }

    /** Untrusted {@code raw}, normalized, as an identifier when it then matches {@code format}; else empty. */
    static <T> Optional<T> parse(String raw, UnaryOperator<String> normalize, Pattern format, Function<String, T> make) {
        if (raw == null) {
            return Optional.empty();
        }
        var text = normalize.apply(raw);
        return format.matcher(text).matches() ? Optional.of(make.apply(text)) : Optional.empty();
    }
}
