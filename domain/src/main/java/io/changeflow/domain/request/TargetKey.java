package io.changeflow.domain.request;

import java.util.Optional;
import java.util.regex.Pattern;

/** Names a target of the catalog, e.g. {@code db-prod-readonly}. */
public record TargetKey(String value) {

    private static final Pattern FORMAT = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,63}$");

    public TargetKey {
        IdentifierText.checked(value, FORMAT, "a target key is 1-64 of a-z 0-9 . _ -");
    }

    public static Optional<TargetKey> parse(String raw) {
        return IdentifierText.parse(raw, String::strip, FORMAT, TargetKey::new);
    }

    public static TargetKey of(String value) {
        return new TargetKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
