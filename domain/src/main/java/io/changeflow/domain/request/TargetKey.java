package io.changeflow.domain.request;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** Names a target of the catalog, e.g. {@code db-prod-readonly}. */
public record TargetKey(String value) {

    private static final Pattern FORMAT = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,63}$");

    public TargetKey {
        Objects.requireNonNull(value, "value");
        if (!FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("a target key is 1-64 of a-z 0-9 . _ -");
        }
    }

    public static Optional<TargetKey> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var trimmed = raw.strip();
        return FORMAT.matcher(trimmed).matches() ? Optional.of(new TargetKey(trimmed)) : Optional.empty();
    }

    public static TargetKey of(String value) {
        return new TargetKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
