package io.changeflow.application.port.out;

import io.changeflow.domain.identity.Identity;
import java.util.Set;

/**
 * The permission service. Callers treat any exception as "no permission" (fail closed).
 */
public interface Permissions {

    /**
     * Checks several rule codes in one round trip.
     *
     * @return the subset of {@code ruleCodes} the identity holds; unknown rule codes are never granted
     */
    Set<String> granted(Identity identity, Set<String> ruleCodes);
}
