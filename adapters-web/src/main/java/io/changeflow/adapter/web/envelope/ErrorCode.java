package io.changeflow.adapter.web.envelope;

import org.springframework.http.HttpStatus;

/**
 * The error codes every part of the web layer answers with, each tied to one HTTP status and a
 * default message that is safe to show to a person. Codes are the contract; messages may change.
 */
public enum ErrorCode {
    /** The request is malformed (bad JSON, missing or ill-typed parameter, invalid fields): fix it and resend. */
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "The request is not valid; please correct it and try again."),
    /** No readable login identity, or the login source failed: sign in (again). */
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Sign-in required."),
    /** A callback without a valid Standard Webhooks signature: nothing was processed or stored. */
    INVALID_SIGNATURE(HttpStatus.UNAUTHORIZED, "The callback signature is missing or invalid."),
    /** A GitLab webhook whose {@code X-Gitlab-Token} is missing or not the configured secret: nothing was processed. */
    INVALID_TOKEN(HttpStatus.UNAUTHORIZED, "The webhook token is missing or wrong."),
    /** The caller is known but may not do this; the message never says which permission is missing. */
    ACCESS_DENIED(HttpStatus.FORBIDDEN, "Access denied"),
    /**
     * A write that looks cross-site (a form or plain-text body without the app's header, or a foreign
     * {@code Origin} / {@code Sec-Fetch-Site}): refused before anything ran. The app sends JSON.
     */
    CROSS_SITE_REQUEST(HttpStatus.FORBIDDEN, "Cross-site requests are refused; please use the app."),
    /** Submissions are closed (access mode CLOSED, or outside the test window): try again later. */
    SERVICE_CLOSED(HttpStatus.FORBIDDEN, "Submissions are closed right now; please try again later."),
    /**
     * The caller may not do this for the subject named (issue 37): the target's policy of who may ask for whom does not
     * let them request for that person, or a give-up names another subject than the caller.
     */
    NOT_ALLOWED_FOR_SUBJECT(HttpStatus.FORBIDDEN, "You may not do this for the person named; ask for yourself."),
    /** No such path, asset or resource. */
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found."),
    /** GitLab webhooks are off here (no secret configured): polling alone drives the waits; nothing was processed. */
    WEBHOOKS_OFF(HttpStatus.NOT_FOUND, "GitLab webhooks are not configured on this service."),
    /** An active request (or one awaiting recovery) exists for this subject and target: follow that one. */
    REQUEST_IN_PROGRESS(HttpStatus.CONFLICT, "A request for this subject and target is already in progress."),
    /** The subject already has this target in effect: nothing to request. */
    ALREADY_IN_EFFECT(HttpStatus.CONFLICT, "This access is already in effect for the subject."),
    /** Giving up or revoking a grant that is not in effect now (in progress, being removed, or ended). */
    GRANT_NOT_IN_EFFECT(HttpStatus.CONFLICT, "This access is not in effect right now; nothing was changed."),
    /** The grant changed while the give-up or revocation was decided (another removal or a renewal won): look again. */
    GRANT_CHANGED(HttpStatus.CONFLICT, "This access changed meanwhile; nothing was changed. Please look at it again."),
    /** The original request with this operationId is still being validated: retry in a moment. */
    IDEMPOTENCY_IN_FLIGHT(HttpStatus.CONFLICT, "Your earlier submission is still being checked; please retry in a moment."),
    /** An operations action the request's current state does not allow (e.g. closing a merged request). */
    ACTION_NOT_ALLOWED(HttpStatus.CONFLICT, "This action is not possible in the request's current state."),
    /** An operator marked a rollout failed that is marked failed already: nothing was changed. */
    ALREADY_MARKED_FAILED(HttpStatus.CONFLICT, "This request's deploy is already marked failed; nothing was changed."),
    /** A settlement of a batch that had already ended (or another settler ended it first): nothing was done now. */
    ALREADY_SETTLED(HttpStatus.CONFLICT, "This batch has already ended; nothing was changed."),
    /** A drift item that is not where this action starts (handled already, or moved meanwhile): nothing was changed. */
    DRIFT_ALREADY_HANDLED(HttpStatus.CONFLICT, "This drift item was already handled; nothing was changed. Please look again."),
    /** A drift action that does not apply to the item (a missing line cannot be removed) or cannot start now. */
    DRIFT_ACTION_NOT_POSSIBLE(HttpStatus.CONFLICT, "This action is not possible for this drift item right now."),
    /** The operationId was used before for a different payload: open the form again (new operationId). */
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT,
            "This operationId was already used for a different request; please start a new form."),
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

    public HttpStatus status() {
        return status;
    }

    public String defaultMessage() {
        return defaultMessage;
    }

    /** The code for a bare HTTP status (framework and container errors). */
    public static ErrorCode forStatus(int status) {
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
