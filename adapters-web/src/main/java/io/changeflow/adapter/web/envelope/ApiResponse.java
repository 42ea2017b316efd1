package io.changeflow.adapter.web.envelope;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * The envelope of every JSON endpoint of ours (legacy endpoints excepted):
 * {@code {"code", "message", "data", "traceId"}}. {@code code} is stable and machine-readable,
 * {@code message} safe to show to a person, {@code traceId} finds the server log lines of the request.
 */
@JsonPropertyOrder({"code", "message", "data", "traceId"})
public record ApiResponse<T>(String code, String message, @Nullable T data, String traceId) {

    /** A success envelope for the current request (its traceId is taken from the request trace). */
    public static <T> ApiResponse<T> of(String code, String message, T data) {
        return new ApiResponse<>(code, message, data, RequestTraceFilter.currentTraceId());
    }

    /** The plain success envelope of a read. */
    public static <T> ApiResponse<T> ok(T data) {
        return of("OK", "OK", data);
    }

    public static <T> ApiResponse<T> error(ErrorCode code, String message, T data, String traceId) {
        return new ApiResponse<>(code.name(), message, data, traceId);
    }
}
