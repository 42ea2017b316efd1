package io.changeflow.adapter.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.CallbackAuthenticity.Verdict;
import io.changeflow.sandbox.webhook.WebhookSigner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandardWebhooksVerifierTest {

    private static final String OLD_SECRET = "whsec_b2xkLXNlY3JldC1vZi10aGUtYXBwcm92YWwtc3lzdGVt";
    private static final String NEW_SECRET = "whsec_bmV3LXNlY3JldC1vZi10aGUtYXBwcm92YWwtc3lzdGVt";
    private static final String OTHER_SECRET = "whsec_c29tZWJvZHktZWxzZXMtc2VjcmV0LWtleS0wMTIzNDU=";
    private static final long NOW = 1_780_000_000L;
    private static final byte[] BODY = """
            {"requestId":"apr-cb-1","operationId":"9b1f2c1e-4a38-4f5e-9c1d-2f4c3b2a1d00","result":"APPROVED","ext":{}}"""
            .getBytes(StandardCharsets.UTF_8);

    private final Clock clock = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);
    private final StandardWebhooksVerifier verifier = verifier(List.of(NEW_SECRET), List.of(OTHER_SECRET));

    @Test
    void acceptsThePublishedStandardWebhooksTestVector() {
        var vectorClock = Clock.fixed(Instant.ofEpochSecond(1614265330), ZoneOffset.UTC);
        var spec = new StandardWebhooksVerifier(Map.of(Source.APPROVAL, List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")),
                vectorClock);

        var verdict = spec.verify(Source.APPROVAL, Map.of(
                "webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                "webhook-timestamp", "1614265330",
                "webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="),
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));

        assertThat(verdict).isEqualTo(Verdict.VALID);
    }

    @Test
    void acceptsACallbackSignedWithTheConfiguredSecret() {
        assertThat(verifier.verify(Source.APPROVAL, signed(NEW_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.VALID);
    }

    @Test
    void refusesATamperedBody() {
        var headers = signed(NEW_SECRET, NOW, BODY);
        var tampered = new String(BODY, StandardCharsets.UTF_8).replace("APPROVED", "REJECTED").getBytes(StandardCharsets.UTF_8);

        assertThat(verifier.verify(Source.APPROVAL, headers, tampered)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void refusesATamperedIdOrTimestamp() {
        var otherId = new HashMap<>(signed(NEW_SECRET, NOW, BODY));
        otherId.put("webhook-id", "msg_other");
        var otherTime = new HashMap<>(signed(NEW_SECRET, NOW, BODY));
        otherTime.put("webhook-timestamp", Long.toString(NOW - 1));

        assertThat(verifier.verify(Source.APPROVAL, otherId, BODY)).isEqualTo(Verdict.INVALID);
        assertThat(verifier.verify(Source.APPROVAL, otherTime, BODY)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void refusesASignatureMadeWithAnotherSecret() {
        assertThat(verifier.verify(Source.APPROVAL, signed(OTHER_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.INVALID);
        assertThat(verifier.verify(Source.DEPLOY, signed(NEW_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void acceptsTheOldAndTheNewSecretDuringARotation() {
        var rotating = verifier(List.of(OLD_SECRET, NEW_SECRET), List.of(OTHER_SECRET));

        assertThat(rotating.verify(Source.APPROVAL, signed(OLD_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.VALID);
        assertThat(rotating.verify(Source.APPROVAL, signed(NEW_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.VALID);
        assertThat(verifier.verify(Source.APPROVAL, signed(OLD_SECRET, NOW, BODY), BODY))
                .as("after the rotation the old secret is gone").isEqualTo(Verdict.INVALID);
    }

    @Test
    void acceptsAnyOfSeveralSignaturesInTheHeader() {
        var headers = new HashMap<>(signed(NEW_SECRET, NOW, BODY));
        var valid = headers.get("webhook-signature");
        headers.put("webhook-signature", "v1,bm9wZQ== v2,whatever v1,%%%garbage " + valid);

        assertThat(verifier.verify(Source.APPROVAL, headers, BODY)).isEqualTo(Verdict.VALID);
    }

    @Test
    void acceptsTimestampsUpToFiveMinutesAwayInEitherDirection() {
        assertThat(verifier.verify(Source.APPROVAL, signed(NEW_SECRET, NOW - 300, BODY), BODY)).isEqualTo(Verdict.VALID);
        assertThat(verifier.verify(Source.APPROVAL, signed(NEW_SECRET, NOW + 300, BODY), BODY)).isEqualTo(Verdict.VALID);
    }

    @Test
    void refusesAnExpiredTimestamp() {
        assertThat(verifier.verify(Source.APPROVAL, signed(NEW_SECRET, NOW - 301, BODY), BODY)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void refusesATimestampFromTheFuture() {
        assertThat(verifier.verify(Source.APPROVAL, signed(NEW_SECRET, NOW + 301, BODY), BODY)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void refusesMissingOrBlankHeaders() {
        var valid = signed(NEW_SECRET, NOW, BODY);
        for (var name : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
            var missing = new HashMap<>(valid);
            missing.remove(name);
            var blank = new HashMap<>(valid);
            blank.put(name, " ");

            assertThat(verifier.verify(Source.APPROVAL, missing, BODY)).as("without " + name).isEqualTo(Verdict.INVALID);
            assertThat(verifier.verify(Source.APPROVAL, blank, BODY)).as("blank " + name).isEqualTo(Verdict.INVALID);
        }
        assertThat(verifier.verify(Source.APPROVAL, Map.of(), BODY)).isEqualTo(Verdict.INVALID);
    }

    @Test
    void refusesGarbageSignaturesAndTimestamps() {
        var valid = signed(NEW_SECRET, NOW, BODY);
        for (var garbage : List.of("v1,%%%not-base64%%%", "v1,", "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                "v1a," + valid.get("webhook-signature").substring(3), "v1,AAAA")) {
            var headers = new HashMap<>(valid);
            headers.put("webhook-signature", garbage);
            assertThat(verifier.verify(Source.APPROVAL, headers, BODY)).as(garbage).isEqualTo(Verdict.INVALID);
        }
        for (var timestamp : List.of("soon", "-1", "1780000000.5", "99999999999999999999")) {
            var headers = new HashMap<>(valid);
            headers.put("webhook-timestamp", timestamp);
            assertThat(verifier.verify(Source.APPROVAL, headers, BODY)).as(timestamp).isEqualTo(Verdict.INVALID);
        }
    }

    @Test
    void findsHeadersWhateverTheirCase() {
        var upper = new HashMap<String, String>();
        signed(NEW_SECRET, NOW, BODY).forEach((name, value) -> upper.put(name.toUpperCase(), value));

        assertThat(verifier.verify(Source.APPROVAL, upper, BODY)).isEqualTo(Verdict.VALID);
    }

    @Test
    void refusesEverythingWhenNoSecretIsConfigured() {
        var unconfigured = verifier(List.of(), List.of(" ", "whsec_%%%"));

        assertThat(unconfigured.verify(Source.APPROVAL, signed(NEW_SECRET, NOW, BODY), BODY)).isEqualTo(Verdict.NOT_CONFIGURED);
        assertThat(unconfigured.verify(Source.DEPLOY, Map.of(), BODY)).isEqualTo(Verdict.NOT_CONFIGURED);
        assertThat(unconfigured.configured(Source.APPROVAL)).isFalse();
        assertThat(unconfigured.configured(Source.DEPLOY)).isFalse();
        assertThat(unconfigured.unusableSecrets(Source.DEPLOY)).isEqualTo(1);
    }

    private StandardWebhooksVerifier verifier(List<String> approval, List<String> deploy) {
        return new StandardWebhooksVerifier(Map.of(Source.APPROVAL, approval, Source.DEPLOY, deploy), clock);
    }

    private static Map<String, String> signed(String secret, long timestamp, byte[] body) {
        var id = "msg_2hJb9kQ0aXz";
        return Map.of("webhook-id", id, "webhook-timestamp", Long.toString(timestamp),
                "webhook-signature", WebhookSigner.of(secret).sign(id, timestamp, body));
    }
}
