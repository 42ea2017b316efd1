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

    private static final KeywordSetting<AccessMode> SETTING = new KeywordSetting<>(
            KeywordSetting.constantNamed(values()), TEST_WINDOW, "restricted default TEST_WINDOW", CLOSED, "CLOSED");

    /** Missing or blank: TEST_WINDOW. Unknown: CLOSED. Trimmed and case-insensitive. */
    public static Resolved<AccessMode> resolve(RawValue raw) {
        return SETTING.resolve(raw);
    }
}
