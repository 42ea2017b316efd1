package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The permission service and the directory are called with a deadline and through a bulkhead. */
class IdentityPortDeadlinesTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger calls = new AtomicInteger();

    private final Directory hungDirectory = employeeId -> {
        calls.incrementAndGet();
        awaitQuietly(release);
        return Optional.of("otto");
    };

    @Test
    void aHungDirectoryLookupFailsAsTimeoutAndIsCancelled() {
        try (var directory = new IdentityPortDeadlines.TimeBoxedDirectory(hungDirectory,
                oneThread("test-directory", Duration.ofMillis(50)))) {
            assertFailure(() -> directory.accountOf("E1004"), "timeout");
            assertThat(calls.get()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFullBulkheadIsRefusedAtOnceWithoutCallingTheService() {
        Permissions hung = (identity, codes) -> {
            calls.incrementAndGet();
            awaitIgnoringInterrupts(release);
            return codes;
        };
        try (var permissions = new IdentityPortDeadlines.TimeBoxedPermissions(hung,
                oneThread("test-permissions", Duration.ofMillis(50)))) {
            var otto = Identity.verified("otto");
            // the one thread hangs in the service, the one queue slot holds a call given up on: the bulkhead is full
            assertFailure(() -> permissions.granted(otto, Set.of("ops.operator")), "timeout");
            assertFailure(() -> permissions.granted(otto, Set.of("ops.operator")), "timeout");
            assertFailure(() -> permissions.granted(otto, Set.of("ops.operator")), "rejected");
            assertThat(calls.get()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void whatTheServiceThrowsComesThroughUnchangedAndAnswersPassThrough() {
        Permissions failing = (identity, codes) -> {
            throw new IllegalStateException("permission service 500");
        };
        try (var permissions = new IdentityPortDeadlines.TimeBoxedPermissions(failing,
                oneThread("test-permissions", Duration.ofSeconds(5)));
             var directory = new IdentityPortDeadlines.TimeBoxedDirectory(id -> Optional.of("alice"),
                     oneThread("test-directory", Duration.ofSeconds(5)))) {
            assertThatThrownBy(() -> permissions.granted(Identity.verified("otto"), Set.of("ops.operator")))
                    .isInstanceOf(IllegalStateException.class).hasMessage("permission service 500");
            assertThat(directory.accountOf("E1001")).contains("alice");
        }
    }

    @Test
    void wrapsThePortBeansOnceAndNothingElse() {
        var deadlines = new IdentityPortDeadlines(() -> WebProperties.load(new org.springframework.mock.env.MockEnvironment()));
        Permissions permissions = (identity, codes) -> Set.of();
        Directory directory = id -> Optional.empty();

        var wrappedPermissions = deadlines.postProcessAfterInitialization(permissions, "permissions");
        var wrappedDirectory = deadlines.postProcessAfterInitialization(directory, "directory");

        assertThat(wrappedPermissions).isInstanceOf(IdentityPortDeadlines.TimeBoxedPermissions.class);
        assertThat(wrappedDirectory).isInstanceOf(IdentityPortDeadlines.TimeBoxedDirectory.class);
        assertThat(deadlines.postProcessAfterInitialization(wrappedPermissions, "again")).isSameAs(wrappedPermissions);
        assertThat(deadlines.postProcessAfterInitialization("not a port", "other")).isEqualTo("not a port");
        var defaults = WebProperties.load(new org.springframework.mock.env.MockEnvironment()
                .withProperty("changeflow.directory.timeout", "0s").withProperty("changeflow.permissions.timeout", "-1s"));
        assertThat(defaults.directoryTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.permissionsTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    /** Calls on one thread with one queue slot. */
    private static TimeBoxedCalls oneThread(String name, Duration timeout) {
        return new TimeBoxedCalls(name, 1, 1, timeout);
    }

    /** {@code call} fails with a {@link TimeBoxedCalls.Failure} of {@code reason}. */
    private static void assertFailure(ThrowingCallable call, String reason) {
        assertThatThrownBy(call).isInstanceOfSatisfying(TimeBoxedCalls.Failure.class, f -> assertThat(f.reason()).isEqualTo(reason));
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (true) {
            try {
                if (latch.await(1, TimeUnit.MINUTES)) {
                    return;
                }
            } catch (InterruptedException ignored) {
                // a hung service does not listen
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
