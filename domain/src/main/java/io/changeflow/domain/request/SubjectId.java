package io.changeflow.domain.request;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** Who or what receives the change (a person's account or a service account), lower case. */
public record SubjectId(String value) {

    private static final Pattern FORMAT = Pattern.compile("^[a-z][a-z0-9._-]{0,63}$");

    public SubjectId {
        Objects.requireNonNull(value, "value");
        if (!FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("a subject is 1-64 of a-z 0-9 . _ -, starting with a letter");
        }
    }

    public static Optional<SubjectId> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var normalized = raw.strip().toLowerCase(Locale.ROOT);
        return FORMAT.matcher(normalized).matches() ? Optional.of(new SubjectId(normalized)) : Optional.empty();
    }

    public static SubjectId of(String value) {
        return new SubjectId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
