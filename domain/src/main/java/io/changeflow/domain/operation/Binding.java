package io.changeflow.domain.operation;

import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The one row of current state of a subject-target relationship (invariant I5). Its
 * {@code operationId} is the current owner: callbacks for any other operation are stale. {@code expiresAt}: the
 * expiry of the owner's grant (for a removal, of the grant whose line it removes).
 */
public record Binding(SubjectId subject, TargetKey target, OperationId operationId, BindingStatus status,
                      long version, Optional<Instant> expiresAt, Instant updatedAt) {

    /**
     * True when this row is in effect (VALIDATED) until exactly the expiry {@code request} asks for (to the millisecond,
     * as stored): a request for the same grant again is no change (ALREADY_IN_EFFECT); another expiry is a renewal.
     * A request of a duration is never the grant in effect: its end is not known before its line is written.
     */
    public boolean alreadyInEffectFor(ChangeRequest request) {
        return status == BindingStatus.VALIDATED && request.duration().isEmpty() && expiresAt.map(at -> at.truncatedTo(ChronoUnit.MILLIS))
                .equals(request.expiresAt().map(at -> at.truncatedTo(ChronoUnit.MILLIS)));
    }
}
