package io.changeflow.domain.request;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Who or what receives the change (a person's account or a service account), lower case. */
public record SubjectId(String value) {

    private static final Pattern FORMAT = Pattern.compile("^[a-z][a-z0-9._-]{0,63}$");

    public SubjectId {
        IdentifierText.checked(value, FORMAT, "a subject is 1-64 of a-z 0-9 . _ -, starting with a letter");
    }

    public static Optional<SubjectId> parse(String raw) {
        return IdentifierText.parse(raw, text -> text.strip().toLowerCase(Locale.ROOT), FORMAT, SubjectId::new);
    }

    public static SubjectId of(String value) {
        return new SubjectId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
