package io.changeflow.adapter.web.identity;

import io.changeflow.adapter.web.IdentityPortDeadlines;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Asks the {@link Permissions} port which of some rule codes a person holds: one round trip, with the
 * port's deadline and bulkhead ({@code changeflow.permissions.timeout}, see {@link IdentityPortDeadlines}).
 * Never throws: the answer says what happened, and callers treat a failure as "holds nothing" (fail closed).
 */
public final class PermissionChecks {

    /** The answer of one check. */
    public sealed interface Answer {

        /** The service answered: the codes held among those asked (never null, no null elements). */
        record Held(Set<String> codes) implements Answer {}

        /** The service threw, answered null, was too slow or its bulkhead was full. */
        public record Failed(String reason, Throwable cause) implements Answer {}

        /** The codes held; none for a failure. */
        default Set<String> heldOrNone() {
            return this instanceof Held held ? held.codes() : Set.of();
        }
    }

    private final Permissions permissions;

    public PermissionChecks(Permissions permissions) {
        this.permissions = permissions;
    }

    /** Which of {@code ruleCodes} {@code identity} holds. An UNVERIFIED identity holds nothing and is never asked about. */
    public Answer check(Identity identity, Set<String> ruleCodes) {
        if (!identity.isVerified() || ruleCodes.isEmpty()) {
            return new Answer.Held(Set.of());
        }
        try {
            var granted = permissions.granted(identity, ruleCodes);
            if (granted == null) {
                return new Answer.Failed("null answer", null);
            }
            return new Answer.Held(granted.stream().filter(Objects::nonNull).filter(ruleCodes::contains)
                    .collect(Collectors.toUnmodifiableSet()));
        } catch (TimeBoxedCalls.Failure e) {
            return new Answer.Failed(e.reason(), e.getCause());
        } catch (RuntimeException e) {
            return new Answer.Failed("error", e);
        }
    }
}
