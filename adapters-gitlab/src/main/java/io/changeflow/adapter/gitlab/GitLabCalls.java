package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallOutcome;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import jakarta.ws.rs.ProcessingException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.HttpRetryException;
import java.nio.channels.ClosedByInterruptException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.gitlab4j.api.GitLabApiException;

/**
 * Every call to GitLab goes through here: a resilience4j TimeLimiter bounds it (on top of the HTTP
 * client's connect and read timeouts), one circuit breaker guards GitLab, and every failure leaves as an
 * {@link ExternalCallException} with the real HTTP status, or the kind TIMEOUT, CIRCUIT_OPEN or IO.
 * Only failures that say GitLab may be unwell (no answer, 5xx, 408) count against the breaker: GitLab's 4xx
 * answers are answers, and a 429 is GitLab asking to come back later (it leaves with the wait GitLab asked
 * for, {@link ExternalCallException#retryAfter()}, and is never tried again at once). Before every call a slot
 * of the shared call budget ({@link GitLabBudget}) is taken; without one the call is not made.
 *
 * <p>Idempotent reads go through {@link #read}, which tries a read that failed transiently again a few
 * times after a short pause before the failure surfaces; every try is a call of its own through the breaker
 * and the time limiter. Writes ({@link #call}) are tried once: whether a write without an answer took effect
 * is for the workflow to find out by reading, before it repeats it.
 */
final class GitLabCalls implements AutoCloseable {

    static final String SYSTEM = "gitlab";

    /** One call to GitLab; may throw anything the client throws. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws Exception;
    }

    /** The last failure seen, for the health indicator: no message, nothing secret. */
    record LastFailure(Kind kind, int status, String operation, Instant at) {}

    private final CircuitBreaker breaker;
    private final TimeLimiter timeLimiter;
    /**
     * Platform threads, never virtual: a virtual thread loading a class from the executable jar (gitlab4j and
     * Jersey load lazily) can hold the nested jar's monitor while every carrier thread is pinned by other
     * virtual threads waiting for the class-loading lock it needs; on a 2-CPU host (2 carriers) that froze an
     * instance for good, heartbeats still running so no other instance took its steps over. The number of
     * threads is bounded by the callers (scheduler threads, web threads), each call by the TimeLimiter. Each
     * task runs in the trace context of the thread that made the call.
     */
    private final ExecutorService executor = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("gitlab-call-", 0).factory());
    private final TraceHeaders traceHeaders;
    private final Clock clock;
    private final Supplier<Optional<String>> notConfigured;
    private final int readRetries;
    private final Duration readRetryBackoff;
    private final GitLabBudget budget;
    private final CallMetrics metrics;
    private final GitLabRateLimitHeaders rateLimitHeaders;
    private volatile LastFailure lastFailure;

    /**
     * @param notConfigured    what keeps the adapter from calling GitLab now (a message naming the setting),
     *                         asked before every call; empty when configured
     * @param readRetries      further tries of a read that failed transiently (0: none)
     * @param readRetryBackoff the pause before the first further try, doubled before each next one
     */
    GitLabCalls(CircuitBreaker breaker, Duration callTimeout, Clock clock, Supplier<Optional<String>> notConfigured,
                int readRetries, Duration readRetryBackoff) {
        this(breaker, callTimeout, clock, notConfigured, readRetries, readRetryBackoff, GitLabBudget.UNLIMITED,
                CallMetrics.NONE);
    }

    /**
     * @param budget  the calls all instances together may make per minute (taken before each call)
     * @param metrics where every try is reported by operation and outcome, the breaker's name as the system
     */
    GitLabCalls(CircuitBreaker breaker, Duration callTimeout, Clock clock, Supplier<Optional<String>> notConfigured,
                int readRetries, Duration readRetryBackoff, GitLabBudget budget, CallMetrics metrics) {
        this(breaker, callTimeout, clock, notConfigured, readRetries, readRetryBackoff, budget, metrics,
                TraceHeaders.NONE);
    }

    /** @param traceHeaders how the calls' threads take over the caller's trace context */
    GitLabCalls(CircuitBreaker breaker, Duration callTimeout, Clock clock, Supplier<Optional<String>> notConfigured,
                int readRetries, Duration readRetryBackoff, GitLabBudget budget, CallMetrics metrics,
                TraceHeaders traceHeaders) {
        this(breaker, callTimeout, clock, notConfigured, readRetries, readRetryBackoff, budget, metrics, traceHeaders,
                GitLabRateLimitHeaders.NONE);
    }

    /** @param rateLimitHeaders GitLab's rate limit as its answers report it: asked before every call */
    GitLabCalls(CircuitBreaker breaker, Duration callTimeout, Clock clock, Supplier<Optional<String>> notConfigured,
                int readRetries, Duration readRetryBackoff, GitLabBudget budget, CallMetrics metrics,
                TraceHeaders traceHeaders, GitLabRateLimitHeaders rateLimitHeaders) {
        if (readRetries < 0) {
            throw new IllegalArgumentException("read retries must not be negative");
        }
        this.breaker = breaker;
        this.notConfigured = notConfigured;
        this.readRetries = readRetries;
        this.readRetryBackoff = readRetryBackoff;
        this.budget = budget;
        this.metrics = metrics;
        this.traceHeaders = traceHeaders;
        this.rateLimitHeaders = rateLimitHeaders;
        this.timeLimiter = TimeLimiter.of("gitlab", TimeLimiterConfig.custom()
                .timeoutDuration(callTimeout)
                .cancelRunningFuture(true)
                .build());
        this.clock = clock;
    }

    /** Whether a failure should count against the breaker: only those that say GitLab may be unwell. */
    static boolean countsAsFailure(Throwable failure) {
        return failure instanceof ExternalCallException e && e.kind() != Kind.CIRCUIT_OPEN && e.isTransient()
                && !rateLimited(e);
    }

    /** GitLab said "too many requests" (429), or the shared budget refused the call: come back later. */
    static boolean rateLimited(ExternalCallException e) {
        return e.kind() == Kind.RATE_LIMITED || (e.kind() == Kind.HTTP_STATUS && e.status() == 429);
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    LastFailure lastFailure() {
        return lastFailure;
    }

    /**
     * Runs {@code call} guarded; {@code operation} names it in messages (never a token or a body). While the
     * adapter is not configured nothing is called: it fails at once with kind NOT_CONFIGURED (not transient,
     * not counted by the breaker).
     */
    <T> T call(String operation, Call<T> call) {
        var start = System.nanoTime();
        try {
            var result = callOnce(operation, call);
            metrics.called(breaker.getName(), operation, CallOutcome.SUCCESS, Duration.ofNanos(System.nanoTime() - start));
            return result;
        } catch (ExternalCallException e) {
            metrics.called(breaker.getName(), operation, CallOutcome.of(e), Duration.ofNanos(System.nanoTime() - start));
            throw e;
        }
    }

    private <T> T callOnce(String operation, Call<T> call) {
        var missing = notConfigured.get();
        if (missing.isPresent()) {
            throw remember(new ExternalCallException(SYSTEM, Kind.NOT_CONFIGURED, 0,
                    operation + ": " + missing.get() + ", the call was not made", null), operation);
        }
        try {
            budget.take(operation);
            rateLimitHeaders.take(operation);
        } catch (ExternalCallException refused) {
            throw remember(refused, operation);
        }
        try {
            return breaker.executeCallable(() -> limited(operation, call));
        } catch (CallNotPermittedException e) {
            throw remember(new ExternalCallException(SYSTEM, Kind.CIRCUIT_OPEN, 0,
                    operation + ": the circuit breaker is open, the call was not made", e), operation);
        } catch (ExternalCallException e) {
            throw remember(e, operation);
        } catch (Exception e) {
            throw remember(translate(operation, e), operation);
        }
    }

    /**
     * Runs the idempotent read {@code call} (a GET) like {@link #call}; when it fails transiently with an answer
     * that says nothing about the request (5xx, 408, 429) or a broken connection, tries it again up to
     * {@code read-retries} times, pausing {@code read-retry-backoff} before the first retry and twice as long
     * before each next one. Not retried: GitLab's 4xx answers, an open breaker (the call was not made), a
     * timeout (the try already waited its full time), an interruption, a missing configuration. The pause
     * blocks the calling thread for at most the sum of the pauses (600 ms with the defaults); it is the only
     * wait in the adapter, and it is bounded.
     */
    <T> T read(String operation, Call<T> call) {
        return idempotent(operation, () -> call(operation, call));
    }

    /**
     * Runs {@code attempt} (which makes its own guarded calls) and, like {@link #read}, runs it again when it
     * failed transiently: for a write that is idempotent in effect, whose attempt first looks at what an
     * earlier attempt (maybe one whose answer was lost) already did, e.g. a branch that exists, a file that
     * has its content, a merge request open from the branch. Never for a write that would act twice.
     */
    <T> T idempotent(String operation, Supplier<T> attempt) {
        for (var retry = 1; ; retry++) {
            try {
                return attempt.get();
            } catch (ExternalCallException e) {
                if (retry > readRetries || !worthReadingAgain(e)) {
                    throw e;
                }
                pauseBeforeRetry(operation, retry, e);
            }
        }
    }

    /** Whether a failed read may simply be made again at once: GitLab (or the way to it) hiccuped. */
    static boolean worthReadingAgain(ExternalCallException e) {
        return e.isTransient() && (e.kind() == Kind.HTTP_STATUS || e.kind() == Kind.IO) && !rateLimited(e)
                && !interrupted(e);
    }

    /** The thread was interrupted (e.g. the scheduler shuts down), whatever exception it surfaced as. */
    private static boolean interrupted(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (var cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause instanceof InterruptedIOException
                    || cause instanceof ClosedByInterruptException) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    private void pauseBeforeRetry(String operation, int retry, ExternalCallException failure) {
        var pause = readRetryBackoff.multipliedBy(1L << Math.min(retry - 1, 16));
        try {
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(pause.toNanos(), TimeUnit.NANOSECONDS, executor))
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            var interrupted = translate(operation, e);
            interrupted.addSuppressed(failure);
            throw interrupted;
        } catch (ExecutionException e) {
            throw failure;
        }
    }

    private <T> T limited(String operation, Call<T> call) {
        try {
            return timeLimiter.executeFutureSupplier(() -> executor.submit(traceHeaders.carrying(call::run)));
        } catch (Exception e) {
            throw translate(operation, e);
        }
    }

    private ExternalCallException remember(ExternalCallException e, String operation) {
        if (e.kind() != Kind.HTTP_STATUS || e.isTransient()) {
            lastFailure = new LastFailure(e.kind(), e.status(), operation, clock.instant());
        }
        return e;
    }

    /** Maps whatever a call threw to the port's exception, keeping GitLab's real status. */
    static ExternalCallException translate(String operation, Throwable failure) {
        if (failure instanceof GitLabApiException e && e.getHttpStatus() == 429) {
            var headers = e.getHeaders();
            var wait = RateLimitAnswer.waitOf(name -> headers == null ? null : headers.getFirst(name), Instant.now());
            return new ExternalCallException(SYSTEM, Kind.HTTP_STATUS, 429,
                    operation + ": HTTP 429, GitLab asks to wait " + wait, e, wait);
        }
        if (failure instanceof ExternalCallException e) {
            return e;
        }
        if (failure instanceof TimeoutException e) {
            return new ExternalCallException(SYSTEM, Kind.TIMEOUT, 0, operation + ": no answer within the call timeout", e);
        }
        if (failure instanceof InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ExternalCallException(SYSTEM, Kind.IO, 0, operation + ": interrupted while waiting", e);
        }
        if (failure instanceof GitLabApiException e && e.getHttpStatus() > 0) {
            // GitLab's own message stays in the cause (for the server log), never in this message.
            return new ExternalCallException(SYSTEM, Kind.HTTP_STATUS, e.getHttpStatus(),
                    operation + ": HTTP " + e.getHttpStatus(), e);
        }
        for (var cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpRetryException retry && retry.responseCode() > 0) {
                // HttpURLConnection hides a 401 to a streamed request behind this exception: keep the status.
                return new ExternalCallException(SYSTEM, Kind.HTTP_STATUS, retry.responseCode(),
                        operation + ": HTTP " + retry.responseCode(), failure);
            }
            if (cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException
                    || cause instanceof TimeoutException) {
                return new ExternalCallException(SYSTEM, Kind.TIMEOUT, 0, operation + ": timed out", failure);
            }
        }
        for (var cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof ProcessingException
                    || cause instanceof InterruptedIOException) {
                return new ExternalCallException(SYSTEM, Kind.IO, 0, operation + ": connection failed ("
                        + cause.getClass().getSimpleName() + ")", failure);
            }
        }
        return new ExternalCallException(SYSTEM, Kind.IO, 0, operation + ": unexpected failure ("
                + failure.getClass().getSimpleName() + ")", failure);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
