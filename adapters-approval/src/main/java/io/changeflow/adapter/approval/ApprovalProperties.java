package io.changeflow.adapter.approval;

import java.time.Duration;

/**
 * {@code changeflow.approval.*}: timeouts and circuit breaker of the approval system client. A
 * missing, zero or negative value falls back to its default, so no call ever waits without bound.
 * The base URL ({@code changeflow.approval.base-url}) is read on every call instead (see
 * {@link ApprovalConfiguration}).
 *
 * @param connectTimeout time to open a connection (default 2s)
 * @param readTimeout    time from sending the request to the response (default 5s)
 * @param callTimeout    bound of the whole call, enforced by a TimeLimiter (default 10s)
 * @param circuitBreaker the breaker "approval"
 */
record ApprovalProperties(Duration connectTimeout, Duration readTimeout, Duration callTimeout, Breaker circuitBreaker) {

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);

    ApprovalProperties {
        connectTimeout = positive(connectTimeout, DEFAULT_CONNECT_TIMEOUT);
        readTimeout = positive(readTimeout, DEFAULT_READ_TIMEOUT);
        callTimeout = positive(callTimeout, DEFAULT_CALL_TIMEOUT);
        circuitBreaker = circuitBreaker == null ? Breaker.defaults() : circuitBreaker;
    }

    static ApprovalProperties defaults() {
        return new ApprovalProperties(null, null, null, null);
    }

    /**
     * The circuit breaker: it counts failures that say the system is unwell (no answer, 5xx, 408,
     * 429); other 4xx answers count as successful calls.
     *
     * @param failureRateThreshold        percentage of failed calls that opens it (default 50)
     * @param slidingWindowSize           calls it looks back on (default 50; on 10 calls random noise opens it)
     * @param minimumNumberOfCalls        calls needed before it may open (default 20)
     * @param waitDurationInOpenState     how long it stays open before letting trial calls through (default 30s)
     * @param permittedCallsInHalfOpenState trial calls when half open (default 2)
     */
    record Breaker(Float failureRateThreshold, Integer slidingWindowSize, Integer minimumNumberOfCalls,
                   Duration waitDurationInOpenState, Integer permittedCallsInHalfOpenState) {

        Breaker {
            failureRateThreshold = failureRateThreshold == null || !(failureRateThreshold > 0 && failureRateThreshold <= 100)
                    ? 50f : failureRateThreshold;
            slidingWindowSize = slidingWindowSize == null || slidingWindowSize < 1 ? 50 : slidingWindowSize;
            minimumNumberOfCalls = minimumNumberOfCalls == null || minimumNumberOfCalls < 1 ? 20 : minimumNumberOfCalls;
            waitDurationInOpenState = positive(waitDurationInOpenState, Duration.ofSeconds(30));
            permittedCallsInHalfOpenState = permittedCallsInHalfOpenState == null || permittedCallsInHalfOpenState < 1
                    ? 2 : permittedCallsInHalfOpenState;
        }

        static Breaker defaults() {
            return new Breaker(null, null, null, null, null);
        }
    }

    private static Duration positive(Duration value, Duration fallback) {
        return value == null || value.isNegative() || value.isZero() ? fallback : value;
    }
}
