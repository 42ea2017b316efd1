package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.LogValues;
import io.changeflow.adapter.web.envelope.MalformedInput;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.guard.BodySizeLimitFilter;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.port.out.DatabaseUnavailable;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.domain.request.FieldError;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The one error model of the HTTP API. Client errors answer an actionable code and a message a
 * person can act on, with the details only in the log; server errors answer a generic message and
 * the traceId, with cause and stack trace only in the log. No answer ever carries an exception
 * message, class name, stack trace or SQL: handlers below build every message themselves.
 *
 * <p>Framework errors map to clean codes: bad JSON, missing parameter or wrong type 400
 * INVALID_REQUEST (with {@code data.fieldErrors} where a parameter is known), wrong method 405,
 * unsupported media type 415, not acceptable 406, body too large 413, unknown path or asset 404
 * NOT_FOUND with {@code Cache-Control: no-store}. An access denial is always 403, never 500. A
 * transient external failure is 503 UNAVAILABLE, and so is a database that does not answer in time (a statement's
 * query timeout, no pooled connection in time, a lost connection or no answer within the socket timeout: issue 34),
 * with {@code Retry-After}, counted. A request the container or Spring cannot read (an
 * undecodable query or form, a multipart or wildcard content type) is 400 or 415 ({@link MalformedInput}).
 * Everything else is 500 INTERNAL_ERROR.
 */
@RestControllerAdvice
public final class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);
    /** Seconds a caller waits before trying again after the database's deadline. */
    static final String DATABASE_RETRY_AFTER = "5";

    private final SafeMeters meters;

    public ApiExceptionHandler(SafeMeters meters) {
        this.meters = meters;
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiResponse<Object>> apiException(ApiException e, HttpServletRequest request) {
        return clientOrServer(e.code(), e.clientMessage(), e.data(), e.getMessage(), null, request);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ApiResponse<Object>> notReadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        if (isBodyTooLarge(e)) {
            return client(ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.PAYLOAD_TOO_LARGE.defaultMessage(), null, "body over the limit", request);
        }
        return client(ErrorCode.INVALID_REQUEST, "The request body is not valid JSON or does not have the expected fields.",
                null, e.getMessage(), request);
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ApiResponse<Object>> missingParameter(MissingServletRequestParameterException e, HttpServletRequest request) {
        return client(ErrorCode.INVALID_REQUEST, "A required parameter is missing.",
                fieldErrors(new FieldError(e.getParameterName(), "REQUIRED", "This parameter is required.")),
                e.getMessage(), request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ApiResponse<Object>> typeMismatch(MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        return client(ErrorCode.INVALID_REQUEST, "A parameter has the wrong format.",
                fieldErrors(new FieldError(e.getName(), "INVALID_FORMAT", "This value has the wrong format.")),
                e.getMessage(), request);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ApiResponse<Object>> methodNotAllowed(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        var response = client(ErrorCode.METHOD_NOT_ALLOWED, ErrorCode.METHOD_NOT_ALLOWED.defaultMessage(), null,
                e.getMessage(), request);
        var allowed = e.getSupportedHttpMethods();
        if (allowed == null || allowed.isEmpty()) {
            return response;
        }
        return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders())
                .header(HttpHeaders.ALLOW, String.join(", ", allowed.stream().map(m -> m.name()).sorted().toList()))
                .body(response.getBody());
    }

    @ExceptionHandler({NoResourceFoundException.class, NoHandlerFoundException.class})
    ResponseEntity<ApiResponse<Object>> notFound(Exception e, HttpServletRequest request) {
        log.debug("not found {} {}", request.getMethod(), LogValues.escaped(request.getRequestURI()));
        return respond(ErrorCode.NOT_FOUND, ErrorCode.NOT_FOUND.defaultMessage(), null, request);
    }

    @ExceptionHandler(AsyncRequestNotUsableException.class)
    void clientGone(AsyncRequestNotUsableException e) {
        log.debug("client went away before the answer", e);
    }

    @ExceptionHandler(ExternalCallException.class)
    ResponseEntity<ApiResponse<Object>> externalCall(ExternalCallException e, HttpServletRequest request) {
        var code = e.isTransient() ? ErrorCode.UNAVAILABLE : ErrorCode.INTERNAL_ERROR;
        return server(code, e.getMessage(), e, request);
    }

    @ExceptionHandler(SecurityException.class)
    ResponseEntity<ApiResponse<Object>> denied(SecurityException e, HttpServletRequest request) {
        return client(ErrorCode.ACCESS_DENIED, ErrorCode.ACCESS_DENIED.defaultMessage(), null, e.getMessage(), request);
    }

    /** The fallback: never echoes the exception; framework errors keep their 4xx status. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ApiResponse<Object>> fallback(Exception e, HttpServletRequest request) {
        if (isBodyTooLarge(e)) {
            return client(ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.PAYLOAD_TOO_LARGE.defaultMessage(), null, "body over the limit", request);
        }
        var malformed = MalformedInput.codeFor(e);
        if (malformed.isPresent()) {
            return client(malformed.get(), malformed.get().defaultMessage(), null, e.getClass().getSimpleName(), request);
        }
        var database = DatabaseUnavailable.reason(e);
        if (database.isPresent()) {
            // The database did not answer in time (no pooled connection, a statement past its deadline, a lost
            // connection or no answer within the socket timeout): nothing was committed by what failed; try again.
            log.warn("database unavailable ({}) {} {}: {}", database.get(), request.getMethod(),
                    LogValues.escaped(request.getRequestURI()), e.toString());
            return databaseUnavailable(database.get(), request);
        }
        if (e instanceof ErrorResponse framework) {
            var code = ErrorCode.forStatus(framework.getStatusCode().value());
            return clientOrServer(code, code.defaultMessage(), null, e.getMessage(), e, request);
        }
        return server(ErrorCode.INTERNAL_ERROR, e.getClass().getName(), e, request);
    }

    /**
     * 503 UNAVAILABLE with {@code Retry-After}: the database did not answer ({@link DatabaseUnavailable}), counted as
     * {@value MeterNames#DATABASE_UNAVAILABLE} by reason. Issue 34.
     */
    ResponseEntity<ApiResponse<Object>> databaseUnavailable(DatabaseUnavailable.Reason reason, HttpServletRequest request) {
        meters.increment(MeterNames.DATABASE_UNAVAILABLE, Map.of("reason", reason.name().toLowerCase(Locale.ROOT)));
        return respond(ResponseEntity.status(ErrorCode.UNAVAILABLE.status()).header(HttpHeaders.RETRY_AFTER, DATABASE_RETRY_AFTER),
                ErrorCode.UNAVAILABLE, ErrorCode.UNAVAILABLE.defaultMessage(), null, request);
    }

    static boolean isBodyTooLarge(Throwable e) {
        for (var cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof BodySizeLimitFilter.BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    private ResponseEntity<ApiResponse<Object>> clientOrServer(ErrorCode code, String message, Object data, String detail,
            Throwable cause, HttpServletRequest request) {
        if (code.status().is5xxServerError()) {
            log.error("internal code={} detail={}", code, LogValues.escaped(detail), cause);
            return respond(code, code.defaultMessage(), null, request);
        }
        return client(code, message, data, detail, request);
    }

    private ResponseEntity<ApiResponse<Object>> client(ErrorCode code, String message, Object data, String detail,
            HttpServletRequest request) {
        log.warn("rejected code={} {} {} detail={}", code, request.getMethod(), LogValues.escaped(request.getRequestURI()),
                LogValues.escaped(detail));
        return respond(code, message, data, request);
    }

    private ResponseEntity<ApiResponse<Object>> server(ErrorCode code, String detail, Throwable cause, HttpServletRequest request) {
        log.error("internal code={} {} {} detail={}", code, request.getMethod(), LogValues.escaped(request.getRequestURI()),
                LogValues.escaped(detail), cause);
        return respond(code, code.defaultMessage(), null, request);
    }

    static ResponseEntity<ApiResponse<Object>> respond(ErrorCode code, String message, Object data, HttpServletRequest request) {
        return respond(ResponseEntity.status(code.status()), code, message, data, request);
    }

    private static ResponseEntity<ApiResponse<Object>> respond(ResponseEntity.BodyBuilder answer, ErrorCode code, String message,
            Object data, HttpServletRequest request) {
        return answer.contentType(MediaType.APPLICATION_JSON)
                .cacheControl(CacheControl.noStore())
                .body(ApiResponse.error(code, message, data, RequestTraceFilter.traceId(request)));
    }

    private static Map<String, List<FieldError>> fieldErrors(FieldError error) {
        return Map.of("fieldErrors", List.of(error));
    }
}
