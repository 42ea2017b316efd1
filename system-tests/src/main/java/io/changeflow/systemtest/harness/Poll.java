package io.changeflow.systemtest.harness;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting without fixed sleeps: ask again until a condition holds or a deadline passes. Every wait
 * of the system tests goes through here, so none can hang a build.
 *
 * <pre>{@code
 * var view = Poll.until("request " + id + " validated", Duration.ofSeconds(30),
 *         () -> client.request(id), v -> v.status().equals("VALIDATED"));
 * }</pre>
 *
 * <p>A supplier that throws counts as "not yet" (an instance may be restarting); the last value
 * or exception is part of the failure message.
 */
public final class Poll {

    /** The pause between two looks unless a poll says otherwise. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(200);

    private Poll() {
    }

    /** Asks {@code probe} every {@link #DEFAULT_INTERVAL} until {@code done} holds; answers that value. */
    public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
        return until(what, timeout, DEFAULT_INTERVAL, probe, done);
    }

    /**
     * Asks {@code probe} every {@code interval} until {@code done} holds for its value.
     *
     * @throws AssertionError when {@code timeout} passes first, naming {@code what} and the last value seen
     */
    public static <T> T until(String what, Duration timeout, Duration interval, Supplier<T> probe,
                              Predicate<? super T> done) {
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(done, "done");
        var deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        RuntimeException lastError = null;
        while (true) {
            try {
                last = probe.get();
                lastError = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (RuntimeException e) {
                lastError = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                var error = new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + (lastError == null ? "; last value: " + last : "; last attempt failed: " + lastError));
                if (lastError != null) {
                    error.initCause(lastError);
                }
                throw error;
            }
            pause(interval);
        }
    }

    /**
     * Like {@link #until}, but a timeout is an answer rather than a failure: the value once {@code done}
     * holds, else empty. For pacing a load loop ("go on when there is work, or after at most ...").
     */
    public static <T> Optional<T> tryUntil(Duration timeout, Duration interval, Supplier<T> probe,
                                                     Predicate<? super T> done) {
        try {
            return Optional.of(until("", timeout, interval, probe, done));
        } catch (AssertionError timedOut) {
            return Optional.empty();
        }
    }

    /** Waits until {@code condition} holds. */
    public static void untilTrue(String what, Duration timeout, Supplier<Boolean> condition) {
        until(what, timeout, condition, Boolean.TRUE::equals);
    }

    /** The pause between two looks of a poll (or a test's deliberate wait); interruption ends it with an exception. */
    public static void pause(Duration interval) {
        try {
            Thread.sleep(interval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}
