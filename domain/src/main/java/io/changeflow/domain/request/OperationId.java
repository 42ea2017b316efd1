package io.changeflow.domain.request;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The client-generated UUID that names one request and is its idempotency key. Canonical form is
 * lower case.
 */
public record OperationId(String value) {

    private static final Pattern UUID = Pattern.compile(
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");

    public OperationId {
        value = IdentifierText.checked(value, UUID, "an operationId is a UUID").toLowerCase(Locale.ROOT);
    }

    /** Parses untrusted input; empty when it is not a UUID. */
    public static Optional<OperationId> parse(String raw) {
        return IdentifierText.parse(raw, String::strip, UUID, OperationId::new);
    }

    public static OperationId of(String value) {
        return new OperationId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
