package io.changeflow.adapter.web;

import io.changeflow.application.port.out.Directory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** An in-memory company directory that can be told to fail like a directory that is down. */
final class FakeDirectory implements Directory {

    private final Map<String, String> accounts = new ConcurrentHashMap<>();
    volatile RuntimeException failure;
    /** While set, every lookup waits for it (a hung directory), at most a minute. */
    volatile java.util.concurrent.CountDownLatch hold;
    final java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();

    void reset() {
        accounts.clear();
        accounts.put("E1001", "alice");
        accounts.put("E1004", "otto");
        failure = null;
        hold = null;
        lookups.set(0);
    }

    @Override
    public Optional<String> accountOf(String employeeId) {
        lookups.incrementAndGet();
        var latch = hold;
        if (latch != null) {
            try {
                latch.await(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("lookup interrupted", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return Optional.ofNullable(accounts.get(employeeId));
    }
}
