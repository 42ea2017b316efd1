package io.changeflow.domain.config;

/** How the approval bots approve a merge request on GitLab. Anything unknown keeps the client library. */
public enum ApproverMode {
    /** Through the GitLab client library (the long-standing way). */
    CLIENT_LIBRARY,
    /** A direct HTTP call that carries the required check items. */
    DIRECT_HTTP;

    public static Resolved<ApproverMode> resolve(RawValue raw) {
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), CLIENT_LIBRARY, "missing: CLIENT_LIBRARY");
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw.text(), CLIENT_LIBRARY, "control characters: CLIENT_LIBRARY");
        }
        return switch (ConfigText.keyword(raw.get()).replace('-', '_')) {
            case "CLIENT_LIBRARY" -> new Resolved<>(raw.text(), CLIENT_LIBRARY, "configured");
            case "DIRECT_HTTP" -> new Resolved<>(raw.text(), DIRECT_HTTP, "configured");
            default -> new Resolved<>(raw.text(), CLIENT_LIBRARY, "unknown value: CLIENT_LIBRARY");
        };
    }
}
