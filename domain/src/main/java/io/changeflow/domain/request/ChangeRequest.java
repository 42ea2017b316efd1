package io.changeflow.domain.request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated request: {@code requester} asks that {@code subject} gets {@code target} (until
 * {@code expiresAt}, if given) for {@code reason}.
 *
 * @param expiresAt the grant's end; for a request of a {@code duration}, empty until the end is fixed (when its
 *                  approved grant line is first written: {@link #withEnd}), then that end
 * @param duration  a request "for 8 hours" (issue 32 item 3): how long the grant lasts once its approved line is
 *                  written, so a slow approval does not eat the granted time; empty for a request of an end
 */
public record ChangeRequest(OperationId operationId, String requester, TargetKey target, SubjectId subject,
                            String reason, Optional<Instant> expiresAt, Optional<Duration> duration) {

    /** A request of an end (or of none): no duration. */
    public ChangeRequest(OperationId operationId, String requester, TargetKey target, SubjectId subject, String reason,
                         Optional<Instant> expiresAt) {
        this(operationId, requester, target, subject, reason, expiresAt, Optional.empty());
    }

    public ChangeRequest {
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(requester, "requester");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(duration, "duration");
        duration.ifPresent(asked -> {
            if (asked.isNegative() || asked.isZero()) {
                throw new IllegalArgumentException("a requested duration is positive: " + asked);
            }
        });
    }

    /** True for a request of a duration whose end is not fixed yet: no grant line may be written for it before. */
    public boolean endOpen() {
        return duration.isPresent() && expiresAt.isEmpty();
    }

    /** The end of a request of a duration whose line is first written at {@code start}: {@code start + duration}. */
    public Instant endFrom(Instant start) {
        return start.plus(duration.orElseThrow(() -> new IllegalStateException(operationId + " asks for no duration")));
    }

    /** This request with its end fixed at {@code end}. */
    public ChangeRequest withEnd(Instant end) {
        return new ChangeRequest(operationId, requester, target, subject, reason, Optional.of(end), duration);
    }

    /**
     * A digest of everything the request asks for (not of its ID). Same operationId with the same
     * fingerprint is a retry; with another fingerprint, a reused idempotency key. A request of a duration is
     * digested by its duration, not by the end fixed later.
     */
    public String fingerprint() {
        var canonical = String.join("\n", requester, target.value(), subject.value(), reason,
                duration.map(asked -> "for=" + asked).orElseGet(() -> expiresAt.map(Instant::toString).orElse("-")));
        try {
            var digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
