package io.changeflow.adapter.web.envelope;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an error envelope directly to the servlet response, for the filters and interceptors
 * that answer before a handler runs (they must not depend on any handler's return type).
 */
public final class JsonResponses {

    private final JsonMapper mapper;

    public JsonResponses(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Writes {@code code} with {@code message} and {@code data} unless the response is already
     * committed. Always {@code Cache-Control: no-store}: an error answer is never cached.
     */
    public void writeError(HttpServletRequest request, HttpServletResponse response, ErrorCode code, String message, Object data)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        var body = mapper.writeValueAsBytes(ApiResponse.error(code, message, data, RequestTraceFilter.traceId(request)));
        response.setStatus(code.status().value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }

    public void writeError(HttpServletRequest request, HttpServletResponse response, ErrorCode code) throws IOException {
        writeError(request, response, code, code.defaultMessage(), null);
    }
}
