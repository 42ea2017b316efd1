package io.changeflow.adapter.web;

import io.changeflow.application.port.out.Directory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** An in-memory company directory that can be told to fail like a directory that is down. */
final class FakeDirectory implements Directory {

    private final Map<String, String> accounts = new ConcurrentHashMap<>();
    volatile RuntimeException failure;

    void reset() {
        accounts.clear();
        accounts.put("E1001", "alice");
        accounts.put("E1004", "otto");
        failure = null;
    }

    @Override
    public Optional<String> accountOf(String employeeId) {
        if (failure != null) {
            throw failure;
        }
        return Optional.ofNullable(accounts.get(employeeId));
    }
}
