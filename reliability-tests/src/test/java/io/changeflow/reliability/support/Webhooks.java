package io.changeflow.reliability.support;

import io.changeflow.sandbox.webhook.WebhookSigner;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Signs callbacks the way the simulators do (Standard Webhooks, the sandbox's {@link WebhookSigner}), so
 * a test can send signed deliveries of its own: many at once, replayed, tampered or signed by a wrong secret.
 */
public final class Webhooks {

    private Webhooks() {
    }

    /** A fresh {@code webhook-id}. */
    public static String newId() {
        return "msg_" + UUID.randomUUID();
    }

    /** The three signature headers for {@code body}, signed now with {@code secret}. */
    public static Map<String, String> headers(String secret, String webhookId, byte[] body) {
        return headers(secret, webhookId, Instant.now().getEpochSecond(), body);
    }

    /** The three signature headers for {@code body} with the given timestamp (seconds). */
    public static Map<String, String> headers(String secret, String webhookId, long timestampSeconds, byte[] body) {
        var headers = new LinkedHashMap<String, String>();
        headers.put("webhook-id", webhookId);
        headers.put("webhook-timestamp", Long.toString(timestampSeconds));
        headers.put("webhook-signature", WebhookSigner.of(secret).sign(webhookId, timestampSeconds, body));
        headers.put("Content-Type", "application/json");
        return headers;
    }

    /** A secret no source is configured with ({@code whsec_} plus random base64). */
    public static String randomSecret() {
        var bytes = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
        return "whsec_" + java.util.Base64.getEncoder().encodeToString(bytes);
    }
}
