package io.changeflow.sandbox.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs outgoing callbacks as the Standard Webhooks specification says: HMAC-SHA256 over
 * {@code "{webhook-id}.{webhook-timestamp}.{raw body}"}, keyed with the base64-decoded part of a
 * {@code whsec_<base64>} secret, sent as {@code webhook-signature: v1,<base64>}.
 */
public final class WebhookSigner {

    private static final String PREFIX = "whsec_";

    private final SecretKeySpec key;

    private WebhookSigner(byte[] key) {
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    /**
     * @param secret {@code whsec_<base64>} (the prefix is optional, as in the reference libraries)
     * @throws IllegalArgumentException when the secret is blank or not base64; the message never holds the secret
     */
    public static WebhookSigner of(String secret) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("a webhook secret is required (whsec_<base64>)");
        }
        var encoded = secret.strip();
        if (encoded.startsWith(PREFIX)) {
            encoded = encoded.substring(PREFIX.length());
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a webhook secret is whsec_ followed by base64");
        }
        if (key.length == 0) {
            throw new IllegalArgumentException("a webhook secret must not be empty");
        }
        return new WebhookSigner(key);
    }

    /** The value of the {@code webhook-signature} header, e.g. {@code v1,g0hM9SsE+OTP...}. */
    public String sign(String messageId, long timestampSeconds, byte[] body) {
        try {
            var mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            mac.update(body);
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
