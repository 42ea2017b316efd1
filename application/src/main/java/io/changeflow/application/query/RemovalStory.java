package io.changeflow.application.query;

import io.changeflow.domain.operation.Operation;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a removal takes a grant's line out of the file, and who caused it ({@code removal} of the request view of an
 * {@link RequestKind#EXPIRY} or {@link RequestKind#REVOCATION}).
 *
 * @param cause why
 * @param by    who: {@code system} for an expiry, otherwise the account that gave the grant up or the operator
 */
public record RemovalStory(Cause cause, String by) {

    /** Why the line is removed; the names are part of the API contract. */
    public enum Cause {
        /** The grant's expiry passed (database clock, plus the configured grace). */
        EXPIRED,
        /** The subject, or the person who requested the grant, gave it up. */
        GIVEN_UP,
        /** An operator revoked it. */
        REVOKED
    }

    public RemovalStory {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(by, "by");
    }

    /**
     * The story of {@code removal}, told from what is stored: a removal records its actor as its requester. A
     * revocation by the subject or by the requester of the grant it removes ({@code grant}) is a give-up (only they
     * may give a grant up); by anyone else it was an operator's. Empty for a grant or renewal.
     */
    public static Optional<RemovalStory> of(Operation removal, Operation grant) {
        return of(removal, grant.requester().equals(removal.requester()));
    }

    /** {@link #of(Operation, Operation)} when the grant it removes was not read (or no longer exists). */
    public static Optional<RemovalStory> of(Operation removal) {
        return of(removal, false);
    }

    private static Optional<RemovalStory> of(Operation removal, boolean byGrantRequester) {
        return switch (removal.kind()) {
            case GRANT -> Optional.empty();
            case EXPIRY -> Optional.of(new RemovalStory(Cause.EXPIRED, removal.requester()));
            case REVOCATION -> {
                var actor = removal.requester();
                var holder = actor.equals(removal.subject().value()) || byGrantRequester;
                yield Optional.of(new RemovalStory(holder ? Cause.GIVEN_UP : Cause.REVOKED, actor));
            }
        };
    }
}
