package io.changeflow.sandbox.fault;

import jakarta.servlet.http.HttpServletResponse;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.MDC;

/**
 * The service's JSON envelope ({@code code}, {@code message}, {@code data}, {@code traceId}) for the
 * sandbox endpoints the SPA and operators use ({@code /sandbox/faults}, the approver inbox). The
 * trace ID is the one the web layer already put on the response ({@code X-Trace-Id}) or into the
 * logging context, else a new one that is then sent as {@code X-Trace-Id} too.
 */
public record SandboxEnvelope(String code, String message, Object data, String traceId) {

    static final String TRACE_HEADER = "X-Trace-Id";

    public static SandboxEnvelope of(String code, String message, Object data, HttpServletResponse response) {
        return new SandboxEnvelope(code, message, data, traceId(response));
    }

    private static String traceId(HttpServletResponse response) {
        var existing = response.getHeader(TRACE_HEADER);
        if (existing != null && !existing.isBlank()) {
            return existing;
        }
        var fromLog = MDC.get("traceId");
        var traceId = fromLog != null && !fromLog.isBlank()
                ? fromLog
                : HexFormat.of().formatHex(longBytes(ThreadLocalRandom.current().nextLong()));
        response.setHeader(TRACE_HEADER, traceId);
        return traceId;
    }

    private static byte[] longBytes(long value) {
        var bytes = new byte[8];
        for (var i = 7; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }
}
