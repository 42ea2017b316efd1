package io.changeflow.adapter.web;

import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.sandbox.webhook.WebhookSigner;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * Standard Webhooks for the tests, both sides: a real HMAC-SHA256 verifier of the
 * {@link CallbackAuthenticity} port (secrets per source, 5-minute tolerance on the test clock,
 * several signatures accepted) and the signer a sender uses, both on the sandbox's {@link WebhookSigner}.
 * The production verifier lives in the approval adapter; this one proves the web layer hands it the raw
 * bytes and headers unchanged.
 */
final class TestWebhooks implements CallbackAuthenticity {

    static final String APPROVAL_SECRET = "whsec_" + Base64.getEncoder().encodeToString("approval-test-key-0123456789".getBytes(StandardCharsets.UTF_8));
    static final String DEPLOY_SECRET = "whsec_" + Base64.getEncoder().encodeToString("deploy-test-key-9876543210".getBytes(StandardCharsets.UTF_8));
    static final String WRONG_SECRET = "whsec_" + Base64.getEncoder().encodeToString("someone-elses-key".getBytes(StandardCharsets.UTF_8));
    static final Duration TOLERANCE = Duration.ofMinutes(5);

    /** A signed delivery: its headers and the exact body bytes. */
    record Signed(String id, String timestamp, String signature, byte[] body) {

        MockHttpServletRequestBuilder applyTo(MockHttpServletRequestBuilder request) {
            return request.contentType("application/json").header("webhook-id", id).header("webhook-timestamp", timestamp)
                    .header("webhook-signature", signature).content(body);
        }

        HttpRequest.Builder applyTo(HttpRequest.Builder request) {
            return request.header("content-type", "application/json").header("webhook-id", id)
                    .header("webhook-timestamp", timestamp).header("webhook-signature", signature)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        }

        Signed withBody(String tampered) {
            return new Signed(id, timestamp, signature, tampered.getBytes(StandardCharsets.UTF_8));
        }
    }

    private final Clock clock;
    private final Map<Source, List<String>> secrets = new EnumMap<>(Source.class);
    final AtomicInteger verifications = new AtomicInteger();

    TestWebhooks(Clock clock) {
        this.clock = clock;
        reset();
    }

    /** Both sources configured with their test secret. */
    synchronized void reset() {
        secrets.put(Source.APPROVAL, List.of(APPROVAL_SECRET));
        secrets.put(Source.DEPLOY, List.of(DEPLOY_SECRET));
        verifications.set(0);
    }

    /** Replaces the secrets of {@code source}; none means "not configured". */
    synchronized void secrets(Source source, String... values) {
        secrets.put(source, List.of(values));
    }

    /** Signs {@code body} as a sender holding {@code secret} would, at {@code at}. */
    static Signed sign(String secret, String body, Instant at) {
        var id = "msg_" + UUID.randomUUID();
        var timestamp = Long.toString(at.getEpochSecond());
        var bytes = body.getBytes(StandardCharsets.UTF_8);
        return new Signed(id, timestamp, WebhookSigner.of(secret).sign(id, at.getEpochSecond(), bytes), bytes);
    }

    Signed approval(String body) {
        return sign(APPROVAL_SECRET, body, clock.instant());
    }

    Signed deploy(String body) {
        return sign(DEPLOY_SECRET, body, clock.instant());
    }

    @Override
    public synchronized Verdict verify(Source source, Map<String, String> headers, byte[] rawBody) {
        verifications.incrementAndGet();
        var configured = secrets.getOrDefault(source, List.of());
        if (configured.isEmpty()) {
            return Verdict.NOT_CONFIGURED;
        }
        var id = headers.get("webhook-id");
        var timestamp = headers.get("webhook-timestamp");
        var signatures = headers.get("webhook-signature");
        if (id == null || timestamp == null || signatures == null || !timestamp.matches("\\d{1,12}")) {
            return Verdict.INVALID;
        }
        if (Math.abs(clock.instant().getEpochSecond() - Long.parseLong(timestamp)) > TOLERANCE.toSeconds()) {
            return Verdict.INVALID;
        }
        var presented = new ArrayList<byte[]>();
        for (var token : signatures.split(" ")) {
            if (token.startsWith("v1,")) {
                try {
                    presented.add(Base64.getDecoder().decode(token.substring(3)));
                } catch (IllegalArgumentException e) {
                    // cannot match
                }
            }
        }
        for (var secret : configured) {
            var signature = WebhookSigner.of(secret).sign(id, Long.parseLong(timestamp), rawBody);
            var expected = Base64.getDecoder().decode(signature.substring("v1,".length()));
            if (presented.stream().anyMatch(p -> MessageDigest.isEqual(expected, p))) {
                return Verdict.VALID;
            }
        }
        return Verdict.INVALID;
    }

    @Override
    public synchronized boolean configured(Source source) {
        return !secrets.getOrDefault(source, List.of()).isEmpty();
    }
}
