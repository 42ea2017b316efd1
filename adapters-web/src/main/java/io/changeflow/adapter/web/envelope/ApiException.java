package io.changeflow.adapter.web.envelope;

/**
 * A client-facing failure raised by a handler: the {@link ErrorCode} decides status and code, the
 * message is what the person sees, and {@code logDetail} goes only to the server log.
 */
public final class ApiException extends RuntimeException {

    private final ErrorCode code;
    private final String clientMessage;
    private final transient Object data;

    public ApiException(ErrorCode code, String clientMessage, Object data, String logDetail) {
        super(logDetail, null, false, false);
        this.code = code;
        this.clientMessage = clientMessage;
        this.data = data;
    }

    public static ApiException of(ErrorCode code, String logDetail) {
        return new ApiException(code, code.defaultMessage(), null, logDetail);
    }

    public ErrorCode code() {
        return code;
    }

    public String clientMessage() {
        return clientMessage;
    }

    public Object data() {
        return data;
    }
}
