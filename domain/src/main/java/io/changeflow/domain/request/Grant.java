package io.changeflow.domain.request;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** One line of a target's grant file: {@code subject} has access until {@code until} (or for good), by {@code operationId}. */
public record Grant(SubjectId subject, Optional<Instant> until, OperationId operationId) {

    public Grant {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(operationId, "operationId");
    }

    public static Grant of(ChangeRequest request) {
        return new Grant(request.subject(), request.expiresAt(), request.operationId());
    }

    /** The line as written in the file. */
    public String line() {
        return subject.value() + " until=" + until.map(Instant::toString).orElse("never") + " op=" + operationId.value();
    }
}
