package io.changeflow.application.port.out;

import io.changeflow.domain.ChangeflowException;
import java.time.Duration;
import java.util.Optional;

/**
 * A call to an external system (GitLab, the approval system, the permission service, ...) did not
 * succeed. Every adapter of an external system reports failures with this one type, carrying the
 * real HTTP status, so callers' retry and ambiguity handling do not depend on the adapter.
 */
public class ExternalCallException extends ChangeflowException {

    /** Why the call failed. */
    public enum Kind {
        /** The system answered with an HTTP error status ({@link #status()} holds it). */
        HTTP_STATUS,
        /** No answer within the configured timeout: the call may or may not have been applied. */
        TIMEOUT,
        /** The circuit breaker is open: the call was not made. */
        CIRCUIT_OPEN,
        /** The connection failed or broke: the call may or may not have been applied. */
        IO,
        /**
         * The adapter is not configured (e.g. no address or no credentials): the call was not made, and
         * retrying cannot help until the configuration changes. Not transient.
         */
        NOT_CONFIGURED,
        /**
         * The call was not made: the calls this system may take from all instances together (a configured
         * budget) are used up for now; {@link #retryAfter()} says when a slot frees up. Transient.
         */
        RATE_LIMITED
    }

    private final String system;
    private final Kind kind;
    private final int status;
    private final Duration retryAfter;

    public ExternalCallException(String system, Kind kind, int status, String message, Throwable cause) {
        this(system, kind, status, message, cause, null);
    }

    /**
     * @param retryAfter how long the system asked callers to wait before the next call (e.g. GitLab's 429 with
     *                   {@code Retry-After}, or a call budget used up); null when it did not say
     */
    public ExternalCallException(String system, Kind kind, int status, String message, Throwable cause,
                                 Duration retryAfter) {
        super(system + " call failed (" + kind + (status > 0 ? " " + status : "") + "): " + message, cause);
        this.system = system;
        this.kind = kind;
        this.status = status;
        this.retryAfter = retryAfter == null || retryAfter.isNegative() ? null : retryAfter;
    }

    public static ExternalCallException status(String system, int status, String message) {
        return new ExternalCallException(system, Kind.HTTP_STATUS, status, message, null);
    }

    /** e.g. {@code gitlab}, {@code approval}. */
    public String system() {
        return system;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when there was no answer. */
    public int status() {
        return status;
    }

    /**
     * The wait the system asked for before the next call (a rate limit: 429 with {@code Retry-After}, or the
     * shared call budget used up); empty when it did not say. Present only on transient failures: a caller
     * that retries waits at least this long, and the failure says nothing about the request.
     */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** Worth retrying later with the same input (no answer, 5xx, 429, breaker open; never a missing configuration). */
    public boolean isTransient() {
        return switch (kind) {
            case TIMEOUT, CIRCUIT_OPEN, IO, RATE_LIMITED -> true;
            case NOT_CONFIGURED -> false;
            case HTTP_STATUS -> status >= 500 || status == 429 || status == 408;
        };
    }
}
