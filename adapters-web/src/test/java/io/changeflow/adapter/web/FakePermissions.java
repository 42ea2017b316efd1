package io.changeflow.adapter.web;

import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-memory permission service that can be told to throw, hang or answer null. */
final class FakePermissions implements Permissions {

    private final Map<String, Set<String>> grants = new ConcurrentHashMap<>();
    final List<Set<String>> calls = new CopyOnWriteArrayList<>();
    volatile RuntimeException failure;
    volatile Duration delay = Duration.ZERO;
    volatile boolean answerNull;
    volatile boolean answerWithNullElement;

    void grant(String account, String... codes) {
        grants.put(account, Set.of(codes));
    }

    void reset() {
        grants.clear();
        calls.clear();
        failure = null;
        delay = Duration.ZERO;
        answerNull = false;
        answerWithNullElement = false;
    }

    @Override
    public Set<String> granted(Identity identity, Set<String> ruleCodes) {
        calls.add(Set.copyOf(ruleCodes));
        Hanging.sleep(delay);
        if (failure != null) {
            throw failure;
        }
        if (answerNull) {
            return null;
        }
        if (answerWithNullElement) {
            var odd = new HashSet<String>();
            odd.add(null);
            odd.add("something.else");
            return odd;
        }
        var held = new HashSet<>(grants.getOrDefault(identity.account(), Set.of()));
        held.retainAll(ruleCodes);
        return held;
    }
}
