package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.CallbackAuthenticity;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: {@code webhook-signature} holds one or more space-separated
 * {@code v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">}, keyed with the
 * base64-decoded part of a {@code whsec_<base64>} secret. A callback is valid when any listed
 * signature matches any configured secret of its source (several during a rotation) and its
 * timestamp is within 5 minutes of now, in either direction. Comparison is constant-time. A source
 * without a usable secret refuses everything (fail closed).
 */
final class StandardWebhooksVerifier implements CallbackAuthenticity {

    static final Duration TOLERANCE = Duration.ofMinutes(5);
    private static final String SECRET_PREFIX = "whsec_";
    private static final String SIGNATURE_VERSION = "v1,";
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{1,12}");
    private static final int MAX_ID_LENGTH = 256;
    private static final int MAX_SIGNATURE_HEADER_LENGTH = 4096;
    private static final int MAX_SIGNATURES = 16;

    private final Map<Source, List<byte[]>> keys = new EnumMap<>(Source.class);
    private final Map<Source, Integer> unusable = new EnumMap<>(Source.class);
    private final Clock clock;

    /** @param secrets per source; blank entries are ignored, malformed ones are counted as unusable and ignored */
    StandardWebhooksVerifier(Map<Source, List<String>> secrets, Clock clock) {
        this.clock = clock;
        for (var source : Source.values()) {
            var usable = new ArrayList<byte[]>();
            var bad = 0;
            for (var secret : secrets.getOrDefault(source, List.of())) {
                if (secret == null || secret.isBlank()) {
                    continue;
                }
                var key = decodeSecret(secret.strip());
                if (key == null) {
                    bad++;
                } else {
                    usable.add(key);
                }
            }
            keys.put(source, List.copyOf(usable));
            unusable.put(source, bad);
        }
    }

    @Override
    public Verdict verify(Source source, Map<String, String> headers, byte[] rawBody) {
        var sourceKeys = keys.get(source);
        if (sourceKeys.isEmpty()) {
            return Verdict.NOT_CONFIGURED;
        }
        var id = header(headers, "webhook-id");
        var timestamp = header(headers, "webhook-timestamp");
        var signatures = header(headers, "webhook-signature");
        if (id == null || timestamp == null || signatures == null
                || id.length() > MAX_ID_LENGTH || signatures.length() > MAX_SIGNATURE_HEADER_LENGTH
                || !TIMESTAMP.matcher(timestamp).matches()) {
            return Verdict.INVALID;
        }
        var sentAt = Long.parseLong(timestamp);
        var now = clock.instant().getEpochSecond();
        if (Math.abs(now - sentAt) > TOLERANCE.toSeconds()) {
            return Verdict.INVALID;
        }
        var presented = presentedSignatures(signatures);
        if (presented.isEmpty()) {
            return Verdict.INVALID;
        }
        var signedContent = signedContent(id, timestamp, rawBody == null ? new byte[0] : rawBody);
        for (var key : sourceKeys) {
            var expected = hmac(key, signedContent);
            for (var candidate : presented) {
                if (MessageDigest.isEqual(expected, candidate)) {
                    return Verdict.VALID;
                }
            }
        }
        return Verdict.INVALID;
    }

    @Override
    public boolean configured(Source source) {
        return !keys.get(source).isEmpty();
    }

    /** How many configured secrets of {@code source} are usable (for health details; never the secrets). */
    int usableSecrets(Source source) {
        return keys.get(source).size();
    }

    /** How many configured secrets of {@code source} were malformed and are ignored. */
    int unusableSecrets(Source source) {
        return unusable.get(source);
    }

    private static String header(Map<String, String> headers, String name) {
        if (headers == null) {
            return null;
        }
        var value = headers.get(name);
        if (value == null) {
            for (var entry : headers.entrySet()) {
                if (entry.getKey() != null && entry.getKey().toLowerCase(Locale.ROOT).equals(name)) {
                    value = entry.getValue();
                    break;
                }
            }
        }
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static List<byte[]> presentedSignatures(String header) {
        var decoded = new ArrayList<byte[]>();
        var tokens = header.split(" ");
        for (var i = 0; i < tokens.length && i < MAX_SIGNATURES; i++) {
            var token = tokens[i];
            if (!token.startsWith(SIGNATURE_VERSION)) {
                continue;
            }
            try {
                decoded.add(Base64.getDecoder().decode(token.substring(SIGNATURE_VERSION.length())));
            } catch (IllegalArgumentException e) {
                // garbage base64: this entry cannot match; another entry may
            }
        }
        return decoded;
    }

    private static byte[] signedContent(String id, String timestamp, byte[] body) {
        var prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        var content = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, content, 0, prefix.length);
        System.arraycopy(body, 0, content, prefix.length, body.length);
        return content;
    }

    private static byte[] hmac(byte[] key, byte[] content) {
        try {
            var mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(content);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** The key of a {@code whsec_<base64>} secret (prefix optional), or null when malformed. */
    private static byte[] decodeSecret(String secret) {
        var encoded = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
        try {
            var key = Base64.getDecoder().decode(encoded);
            return key.length == 0 ? null : key;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
