package io.changeflow.application.port.out;

import java.util.Locale;

/**
 * How one call to an external system ended, as a bounded metric tag: every adapter of an external
 * system times its calls by operation and outcome with these values only ({@link #tag()}).
 */
public enum CallOutcome {
    /** The system answered with success. */
    SUCCESS,
    /** The system answered 4xx (not 408, not 429): an answer about the request, not a sign of trouble. */
    CLIENT_ERROR,
    /** The system answered 5xx. */
    SERVER_ERROR,
    /** No answer within the timeout (or 408): the call may or may not have been applied. */
    TIMEOUT,
    /** The system answered 429, or the shared call budget refused the call before it was made. */
    RATE_LIMITED,
    /** The connection failed or broke, or the answer could not be read. */
    CONNECTION_ERROR,
    /** The call was not made: the circuit breaker is open, or the adapter is not configured. */
    NOT_CALLED;

    /** The outcome of a call that failed with {@code failure}. */
    public static CallOutcome of(ExternalCallException failure) {
        return switch (failure.kind()) {
            case TIMEOUT -> TIMEOUT;
            case IO -> CONNECTION_ERROR;
            case CIRCUIT_OPEN, NOT_CONFIGURED -> NOT_CALLED;
            case RATE_LIMITED -> RATE_LIMITED;
            case HTTP_STATUS -> failure.status() == 429 ? RATE_LIMITED
                    : failure.status() == 408 ? TIMEOUT
                    : failure.status() >= 500 ? SERVER_ERROR : CLIENT_ERROR;
        };
    }

    /** The tag value, e.g. {@code server_error}. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
