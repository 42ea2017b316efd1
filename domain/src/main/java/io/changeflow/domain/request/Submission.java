package io.changeflow.domain.request;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A submission as the client sent it (every field untrusted text), and its validation into a
 * {@link ChangeRequest}. All problems are reported at once, one {@link FieldError} per field.
 *
 * @param expiresAt the end asked for (a day or an instant); null or blank: none
 * @param duration  instead of an end, how long the grant lasts once its approved line is written
 *                  ({@link RequestedDuration}); null or blank: none. Both given is a field error of {@code duration}.
 */
public record Submission(String operationId, String targetKey, String subjectId, String reason, String expiresAt,
                         String duration) {

    /** A submission of an end (or of none). */
    public Submission(String operationId, String targetKey, String subjectId, String reason, String expiresAt) {
        this(operationId, targetKey, subjectId, reason, expiresAt, null);
    }

    public static final int REASON_MAX = 500;
    public static final Duration LONGEST_GRANT = Duration.ofDays(366);

    /** The outcome of validation. */
    public sealed interface Validation {
        record Valid(ChangeRequest request) implements Validation {}

        record Invalid(List<FieldError> errors) implements Validation {}
    }

    /**
     * @param requester the caller's canonical account; also the subject when none is given
     * @param now       the current time, for the expiry checks
     */
    public Validation validate(String requester, Instant now) {
        java.util.Objects.requireNonNull(requester, "requester");
        java.util.Objects.requireNonNull(now, "now");
        var errors = new ArrayList<FieldError>();
        var id = OperationId.parse(operationId);
        if (operationId == null || operationId.isBlank()) {
            errors.add(new FieldError("operationId", "REQUIRED", "operationId is required (a UUID generated when the form opens)"));
        } else if (id.isEmpty()) {
            errors.add(new FieldError("operationId", "INVALID_FORMAT", "operationId must be a UUID"));
        }
        var target = TargetKey.parse(targetKey);
        if (targetKey == null || targetKey.isBlank()) {
            errors.add(new FieldError("targetKey", "REQUIRED", "targetKey is required"));
        } else if (target.isEmpty()) {
            errors.add(new FieldError("targetKey", "INVALID_FORMAT", "targetKey is 1-64 of a-z 0-9 . _ -"));
        }
        Optional<SubjectId> subject;
        if (subjectId == null || subjectId.isBlank()) {
            subject = SubjectId.parse(requester);
        } else {
            subject = SubjectId.parse(subjectId);
            if (subject.isEmpty()) {
                errors.add(new FieldError("subjectId", "INVALID_FORMAT",
                        "subjectId is an account: 1-64 of a-z 0-9 . _ -, starting with a letter"));
            }
        }
        var trimmedReason = reason == null ? "" : reason.strip();
        if (trimmedReason.isEmpty()) {
            errors.add(new FieldError("reason", "REQUIRED", "reason is required"));
        } else if (trimmedReason.codePointCount(0, trimmedReason.length()) > REASON_MAX) {
            errors.add(new FieldError("reason", "TOO_LONG", "reason is at most " + REASON_MAX + " characters"));
        } else if (trimmedReason.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t')) {
            errors.add(new FieldError("reason", "INVALID_CHARACTERS", "reason contains control characters"));
        }
        Optional<Instant> expiry = Optional.empty();
        if (expiresAt != null && !expiresAt.isBlank()) {
            expiry = parseExpiry(expiresAt.strip());
            if (expiry.isEmpty()) {
                errors.add(new FieldError("expiresAt", "INVALID_FORMAT",
                        "expiresAt is an ISO-8601 date (2026-12-04) or instant (2026-12-04T17:00:00Z)"));
            } else if (!expiry.get().isAfter(now)) {
                errors.add(new FieldError("expiresAt", "IN_THE_PAST", "expiresAt must be in the future"));
            } else if (expiry.get().isAfter(now.plus(LONGEST_GRANT))) {
                errors.add(new FieldError("expiresAt", "TOO_FAR", "expiresAt is at most 366 days ahead"));
            }
        }
        Optional<Duration> asked = Optional.empty();
        if (duration != null && !duration.isBlank()) {
            if (expiresAt != null && !expiresAt.isBlank()) {
                errors.add(new FieldError("duration", "MUTUALLY_EXCLUSIVE",
                        "give either expiresAt (an end) or duration (a length), not both"));
            } else {
                switch (RequestedDuration.parse(duration)) {
                    case RequestedDuration.Parsed.Asked ok -> asked = Optional.of(ok.value());
                    case RequestedDuration.Parsed.Refused refused -> errors.add(refused.error());
                }
            }
        }
        if (subject.isEmpty() && (subjectId == null || subjectId.isBlank())) {
            errors.add(new FieldError("subjectId", "REQUIRED", "subjectId is required when your account is not a valid subject"));
        }
        if (!errors.isEmpty()) {
            return new Validation.Invalid(List.copyOf(errors));
        }
        return new Validation.Valid(new ChangeRequest(id.get(), requester, target.get(), subject.orElseThrow(), trimmedReason, expiry, asked));
    }

    /** A date means the end of that day (UTC): "until Friday" includes Friday. */
    private static Optional<Instant> parseExpiry(String raw) {
        try {
            if (raw.length() == 10) {
                return Optional.of(LocalDate.parse(raw).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
            }
            return Optional.of(Instant.parse(raw));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
