package io.changeflow.application.port.out;

import java.util.Map;

/**
 * Verifies that a callback really comes from the external system (Standard Webhooks signatures:
 * {@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature}), on the raw body,
 * before anything is parsed or stored. Without a configured secret every callback is refused.
 */
public interface CallbackAuthenticity {

    /** Which system's secret applies. */
    enum Source { APPROVAL, DEPLOY }

    /** The verdict. */
    enum Verdict {
        /** Signed with a current secret, within the timestamp tolerance. */
        VALID,
        /** Missing or malformed headers, bad signature, or a timestamp outside the tolerance. */
        INVALID,
        /** No secret configured for this source: refuse (fail closed). */
        NOT_CONFIGURED
    }

    /** @param headers request headers, names in lower case */
    Verdict verify(Source source, Map<String, String> headers, byte[] rawBody);

    /** Whether a secret is configured for {@code source} (health reports DOWN when not). */
    boolean configured(Source source);
}
