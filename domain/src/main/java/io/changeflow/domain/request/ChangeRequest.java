package io.changeflow.domain.request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated request: {@code requester} asks that {@code subject} gets {@code target} (until
 * {@code expiresAt}, if given) for {@code reason}.
 */
public record ChangeRequest(OperationId operationId, String requester, TargetKey target, SubjectId subject,
                            String reason, Optional<Instant> expiresAt) {

    public ChangeRequest {
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(requester, "requester");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * A digest of everything the request asks for (not of its ID). Same operationId with the same
     * fingerprint is a retry; with another fingerprint, a reused idempotency key.
     */
    public String fingerprint() {
        var canonical = String.join("\n", requester, target.value(), subject.value(), reason,
                expiresAt.map(Instant::toString).orElse("-"));
        try {
            var digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
