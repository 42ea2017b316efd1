package io.changeflow.application.fake;

import io.changeflow.application.port.out.Directory;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Directory} from a map of employee ID to account and a set of related pairs of accounts (either way round);
 * {@link #failing} makes lookups throw.
 */
public final class FakeDirectory implements Directory {

    private final Map<String, String> accounts = new ConcurrentHashMap<>();
    private final Set<String> relations = ConcurrentHashMap.newKeySet();
    private volatile boolean failing;

    public FakeDirectory put(String employeeId, String account) {
        accounts.put(employeeId, account);
        return this;
    }

    /** {@code one} and {@code other} are related from now on (a manager and their report, or one team). */
    public FakeDirectory relate(String one, String other) {
        relations.add(one + "\n" + other);
        relations.add(other + "\n" + one);
        return this;
    }

    public void failing(boolean failing) {
        this.failing = failing;
    }

    @Override
    public Optional<String> accountOf(String employeeId) {
        if (failing) {
            throw new IllegalStateException("directory unavailable");
        }
        return Optional.ofNullable(accounts.get(employeeId));
    }

    @Override
    public boolean relates(String requester, String subject) {
        if (failing) {
            throw new IllegalStateException("directory unavailable");
        }
        return relations.contains(requester + "\n" + subject);
    }
}
