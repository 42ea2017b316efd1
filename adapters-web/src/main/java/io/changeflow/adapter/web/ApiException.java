package io.changeflow.adapter.web;

/**
 * A client-facing failure raised by a handler: the {@link ErrorCode} decides status and code, the
 * message is what the person sees, and {@code logDetail} goes only to the server log.
 */
final class ApiException extends RuntimeException {

    private final ErrorCode code;
    private final String clientMessage;
    private final transient Object data;

    ApiException(ErrorCode code, String clientMessage, Object data, String logDetail) {
        super(logDetail, null, false, false);
        this.code = code;
        this.clientMessage = clientMessage;
        this.data = data;
    }

    static ApiException of(ErrorCode code, String logDetail) {
        return new ApiException(code, code.defaultMessage(), null, logDetail);
    }

    ErrorCode code() {
        return code;
    }

    String clientMessage() {
        return clientMessage;
    }

    Object data() {
        return data;
    }
}
