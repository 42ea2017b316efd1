package io.changeflow.application.fake;

import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Permissions} from a map of account to rule codes; {@link #failing} makes every call throw. */
public final class FakePermissions implements Permissions {

    private final Map<String, Set<String>> rules = new ConcurrentHashMap<>();
    private volatile boolean failing;

    public FakePermissions grant(String account, String... ruleCodes) {
        rules.computeIfAbsent(account, a -> ConcurrentHashMap.newKeySet()).addAll(Set.of(ruleCodes));
        return this;
    }

    public void failing(boolean failing) {
        this.failing = failing;
    }

    @Override
    public Set<String> granted(Identity identity, Set<String> ruleCodes) {
        if (failing) {
            throw new IllegalStateException("permission service unavailable");
        }
        var held = new HashSet<>(rules.getOrDefault(identity.account(), Set.of()));
        held.retainAll(ruleCodes);
        return Set.copyOf(held);
    }
}
