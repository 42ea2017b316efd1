package io.changeflow.application.query;

import io.changeflow.domain.operation.Operation;

/**
 * What a request changes, as people and the API name it ({@code kind} of the request view). Derived from what is
 * stored: the operation's {@link io.changeflow.domain.state.ChangeKind} and, for a grant, whether it names a grant in
 * effect whose line it rewrites. The names are part of the API contract.
 */
public enum RequestKind {
    /** A first grant, or a re-application after the earlier one ended: adds the subject's line. */
    GRANT,
    /** Another expiry for a grant in effect: rewrites the line with the new until, approved like a grant. */
    RENEWAL,
    /** The grant's expiry passed: its line is removed by the removal round of the target's file. */
    EXPIRY,
    /** The grant was given up by its subject or requester, or revoked by an operator: its line is removed. */
    REVOCATION;

    public static RequestKind of(Operation op) {
        return switch (op.kind()) {
            case GRANT -> op.isRenewal() ? RENEWAL : GRANT;
            case EXPIRY -> EXPIRY;
            case REVOCATION -> REVOCATION;
        };
    }
}
