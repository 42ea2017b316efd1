package io.changeflow.adapter.web;

import org.springframework.http.HttpStatus;

/**
 * The error codes every part of the web layer answers with, each tied to one HTTP status and a
 * default message that is safe to show to a person. Codes are the contract; messages may change.
 */
enum ErrorCode {
    /** The request is malformed (bad JSON, missing or ill-typed parameter, invalid fields): fix it and resend. */
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "The request is not valid; please correct it and try again."),
    /** No readable login identity, or the login source failed: sign in (again). */
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Sign-in required."),
    /** The caller is known but may not do this; the message never says which permission is missing. */
    ACCESS_DENIED(HttpStatus.FORBIDDEN, "Access denied"),
    /** Submissions are closed (access mode CLOSED, or outside the test window): try again later. */
    SERVICE_CLOSED(HttpStatus.FORBIDDEN, "Submissions are closed right now; please try again later."),
    /** No such path, asset or resource. */
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found."),
    /** The path exists but not for this HTTP method (the {@code Allow} header lists the methods). */
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "This method is not allowed here."),
    /** The client accepts no representation we can produce: accept application/json. */
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Please accept application/json."),
    /** The request body is over the configured limit. */
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "The request body is too large."),
    /** The body's content type is not accepted here: send application/json. */
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported content type; please send application/json."),
    /** Over quota: wait for {@code Retry-After} seconds. */
    RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "Too many requests; please try again later."),
    /** Our fault; the details are in the server log under the traceId. */
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR,
            "Something went wrong on our side. Please quote the traceId if you contact support."),
    /** A dependency is down or overloaded: retry later. */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "A service we depend on is unavailable; please try again later.");

    private final HttpStatus status;
    private final String defaultMessage;

    ErrorCode(HttpStatus status, String defaultMessage) {
        this.status = status;
        this.defaultMessage = defaultMessage;
    }

    HttpStatus status() {
        return status;
    }

    String defaultMessage() {
        return defaultMessage;
    }

    /** The code for a bare HTTP status (framework and container errors). */
    static ErrorCode forStatus(int status) {
        return switch (status) {
            case 401 -> UNAUTHENTICATED;
            case 403 -> ACCESS_DENIED;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 429 -> RATE_LIMITED;
            case 502, 503, 504 -> UNAVAILABLE;
            default -> status >= 400 && status < 500 ? INVALID_REQUEST : INTERNAL_ERROR;
        };
    }
}
