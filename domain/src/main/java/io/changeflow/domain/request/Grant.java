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

    /**
     * The line of {@code request}. A request of a duration has its end fixed first (it is fixed when its approved line
     * is first written); asking for its line before is a bug, never a line "until=never".
     */
    public static Grant of(ChangeRequest request) {
        if (request.endOpen()) {
            throw new IllegalStateException("the end of " + request.operationId() + " (for " + request.duration().get()
                    + ") is fixed before its line is written");
        }
        return new Grant(request.subject(), request.expiresAt(), request.operationId());
    }

    /** The line as written in the file. */
    public String line() {
        return subject.value() + " until=" + until.map(Instant::toString).orElse("never") + " op=" + operationId.value();
    }
}
