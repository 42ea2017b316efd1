package io.changeflow.adapter.web.identity;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Calls one dependency with a deadline, on its own small bounded pool (a bulkhead): a slow or hung
 * dependency holds at most {@code threads} threads plus a short queue, never the request threads
 * beyond the deadline. Never throws: the outcome says what happened.
 */
public final class TimeBoxedCalls implements AutoCloseable {

    /** What a call came to. */
    public sealed interface Outcome<T> {

        /** The dependency answered in time (the value may be null if it answered null). */
        public record Done<T>(T value) implements Outcome<T> {}

        /**
         * It did not: {@code reason} is {@code timeout}, {@code rejected} (bulkhead full),
         * {@code interrupted} or {@code error} (it threw; {@code cause} holds the exception).
         */
        public record Failed<T>(String reason, Throwable cause) implements Outcome<T> {}
    }

    /** A call that did not come back in time or was refused by the bulkhead ({@link #callOrThrow}). */
    public static final class Failure extends RuntimeException {

        private final String reason;

        Failure(String name, String reason, Throwable cause) {
            super(name + ": " + reason, cause);
            this.reason = reason;
        }

        /** {@code timeout}, {@code rejected} or {@code interrupted}. */
        public String reason() {
            return reason;
        }
    }

    private final String name;
    private final ThreadPoolExecutor pool;
    private final Duration timeout;

    public TimeBoxedCalls(String name, int threads, int queue, Duration timeout) {
        this.name = name;
        this.timeout = timeout;
        var counter = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), task -> {
            var thread = new Thread(task, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.pool.allowCoreThreadTimeOut(true);
    }

    public <T> Outcome<T> call(Callable<T> task) {
        Future<T> future;
        try {
            future = pool.submit(task);
        } catch (RejectedExecutionException e) {
            return new Outcome.Failed<>("rejected", e);
        }
        try {
            return new Outcome.Done<>(future.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            future.cancel(true);
            return new Outcome.Failed<>("timeout", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            return new Outcome.Failed<>("interrupted", e);
        } catch (ExecutionException e) {
            return new Outcome.Failed<>("error", e.getCause() == null ? e : e.getCause());
        }
    }

    /**
     * Like {@link #call}, for a port whose callers expect exceptions: the value, or what the task threw
     * (a checked exception wrapped), or a {@link Failure} when it did not answer in time or the bulkhead was full.
     */
    public <T> T callOrThrow(Callable<T> task) {
        var outcome = call(task);
        if (outcome instanceof Outcome.Done<T>(var value)) {
            return value;
        }
        var failed = (Outcome.Failed<T>) outcome;
        if (failed.reason().equals("error")) {
            if (failed.cause() instanceof RuntimeException e) {
                throw e;
            }
            if (failed.cause() instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(name + " failed", failed.cause());
        }
        throw new Failure(name, failed.reason(), failed.cause());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
