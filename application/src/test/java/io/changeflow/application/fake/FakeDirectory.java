package io.changeflow.application.fake;

import io.changeflow.application.port.out.Directory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Directory} from a map of employee ID to account; {@link #failing} makes lookups throw. */
public final class FakeDirectory implements Directory {

    private final Map<String, String> accounts = new ConcurrentHashMap<>();
    private volatile boolean failing;

    public FakeDirectory put(String employeeId, String account) {
        accounts.put(employeeId, account);
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
}
