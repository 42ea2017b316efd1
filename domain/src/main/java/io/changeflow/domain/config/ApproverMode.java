package io.changeflow.domain.config;

/** How the approval bots approve a merge request on GitLab. Anything unknown keeps the client library. */
public enum ApproverMode {
    /** Through the GitLab client library (the long-standing way). */
    CLIENT_LIBRARY,
    /** A direct HTTP call that carries the required check items. */
    DIRECT_HTTP;

    private static final KeywordSetting<ApproverMode> SETTING = new KeywordSetting<>(
            KeywordSetting.constantNamed(values()).compose((String keyword) -> keyword.replace('-', '_')),
            CLIENT_LIBRARY, "CLIENT_LIBRARY", CLIENT_LIBRARY, "CLIENT_LIBRARY");

    /** Trimmed and case-insensitive, {@code -} read as {@code _}; missing, garbled or unknown: CLIENT_LIBRARY. */
    public static Resolved<ApproverMode> resolve(RawValue raw) {
        return SETTING.resolve(raw);
    }
}
