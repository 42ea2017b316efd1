package io.changeflow.application.callback;

/** What a callback endpoint answers (always 2xx: the sender must not retry any of these). */
public enum CallbackAnswer {
    /** The callback was taken into account. */
    PROCESSED,
    /** This delivery was seen before; nothing was done again. */
    DUPLICATE,
    /** Not for the current owner, or the owner is no longer waiting for it: ignored on purpose. */
    IGNORED_STALE
}
