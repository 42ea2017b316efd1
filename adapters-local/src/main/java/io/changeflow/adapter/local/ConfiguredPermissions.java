package io.changeflow.adapter.local;

import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The embedded default {@link Permissions}: grants from configuration,
 * {@code changeflow.permissions.grants.<account>=<rule code>[,<rule code>...]}, e.g.
 * {@code changeflow.permissions.grants.otto=ops.operator}. Read once at start-up. A deployment with
 * a real permission service wires its own adapter and sets
 * {@code changeflow.identity.embedded-defaults=false}.
 *
 * <p>Only VERIFIED identities hold anything; rule codes not granted (or unknown) are never returned.
 */
public final class ConfiguredPermissions implements Permissions {

    private final Map<String, Set<String>> grants;

    public ConfiguredPermissions(Map<String, String> grantsByAccount) {
        var parsed = new HashMap<String, Set<String>>();
        grantsByAccount.forEach((account, codes) -> parsed.put(account.strip().toLowerCase(Locale.ROOT),
                Set.copyOf(Arrays.stream(codes.split(",")).map(String::strip).filter(c -> !c.isEmpty()).toList())));
        this.grants = Map.copyOf(parsed);
    }

    @Override
    public Set<String> granted(Identity identity, Set<String> ruleCodes) {
        if (!identity.isVerified()) {
            return Set.of();
        }
        var held = new HashSet<>(grants.getOrDefault(identity.account(), Set.of()));
        held.retainAll(ruleCodes);
        return Set.copyOf(held);
    }
}
