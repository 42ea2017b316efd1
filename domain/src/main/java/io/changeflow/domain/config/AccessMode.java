package io.changeflow.domain.config;

/**
 * Who may submit requests. Misconfiguration closes access rather than opening it: a missing value
 * means the restricted default, anything unrecognised (typos included) means closed.
 */
public enum AccessMode {
    /** Everyone may submit. */
    OPEN,
    /** Submissions are accepted only inside the configured test window. */
    TEST_WINDOW,
    /** Nobody may submit. */
    CLOSED;

    /** Missing or blank: TEST_WINDOW. Unknown: CLOSED. Trimmed and case-insensitive. */
    public static Resolved<AccessMode> resolve(RawValue raw) {
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), TEST_WINDOW, "missing: restricted default TEST_WINDOW");
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw.text(), CLOSED, "control characters: CLOSED");
        }
        return switch (ConfigText.keyword(raw.get())) {
            case "OPEN" -> new Resolved<>(raw.text(), OPEN, "configured");
            case "TEST_WINDOW" -> new Resolved<>(raw.text(), TEST_WINDOW, "configured");
            case "CLOSED" -> new Resolved<>(raw.text(), CLOSED, "configured");
            default -> new Resolved<>(raw.text(), CLOSED, "unknown value: CLOSED");
        };
    }
}
