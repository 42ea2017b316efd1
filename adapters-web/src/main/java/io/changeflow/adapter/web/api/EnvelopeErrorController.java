package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.MalformedInput;
import io.changeflow.application.port.out.DatabaseUnavailable;
import jakarta.servlet.RequestDispatcher;
import java.util.Optional;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Boot's error page for errors that happen outside Spring MVC's exception handling (the
 * container's error dispatch, e.g. an exception thrown by a filter): the same envelope, the status
 * kept, the message generic, the exception only in the log. A database that did not answer is 503 with
 * {@code Retry-After} here too.
 */
@RestController
public final class EnvelopeErrorController implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(EnvelopeErrorController.class);

    private final ApiExceptionHandler handler;

    public EnvelopeErrorController(ApiExceptionHandler handler) {
        this.handler = handler;
    }

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ApiResponse<Object>> error(HttpServletRequest request) {
        if (!(request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer status)) {
            return ApiExceptionHandler.respond(ErrorCode.NOT_FOUND, ErrorCode.NOT_FOUND.defaultMessage(), null, request);
        }
        var code = ErrorCode.forStatus(status);
        var exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        var path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        var database = exception instanceof Throwable t ? DatabaseUnavailable.reason(t) : Optional.<DatabaseUnavailable.Reason>empty();
        if (database.isPresent()) {
            // e.g. a filter's database read found no connection in time (issue 34)
            log.warn("database unavailable ({}) path={} (container error dispatch)", database.get(), path);
            return handler.databaseUnavailable(database.get(), request);
        }
        if (ApiExceptionHandler.isBodyTooLarge(exception instanceof Throwable t ? t : null)) {
            code = ErrorCode.PAYLOAD_TOO_LARGE;
        } else if (exception instanceof Throwable t && MalformedInput.codeFor(t).isPresent()) {
            // e.g. a filter read an undecodable query string: the client's error, not ours
            code = MalformedInput.codeFor(t).get();
        }
        if (code.status().is5xxServerError()) {
            log.error("internal code={} path={} (container error dispatch)", code, path,
                    exception instanceof Throwable t ? t : null);
        } else {
            log.warn("rejected code={} path={} (container error dispatch)", code, path);
        }
        return ApiExceptionHandler.respond(code, code.defaultMessage(), null, request);
    }
}
