package io.changeflow.application.port.out;

import io.changeflow.domain.ChangeflowException;

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
        NOT_CONFIGURED
    }

    private final String system;
    private final Kind kind;
    private final int status;

    public ExternalCallException(String system, Kind kind, int status, String message, Throwable cause) {
        super(system + " call failed (" + kind + (status > 0 ? " " + status : "") + "): " + message, cause);
        this.system = system;
        this.kind = kind;
        this.status = status;
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

    /** Worth retrying later with the same input (no answer, 5xx, 429, breaker open; never a missing configuration). */
    public boolean isTransient() {
        return switch (kind) {
            case TIMEOUT, CIRCUIT_OPEN, IO -> true;
            case NOT_CONFIGURED -> false;
            case HTTP_STATUS -> status >= 500 || status == 429 || status == 408;
        };
    }
}
