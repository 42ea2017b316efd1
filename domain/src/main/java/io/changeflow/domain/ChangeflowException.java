package io.changeflow.domain;

/** Root of every exception Changeflow throws on purpose. */
public class ChangeflowException extends RuntimeException {

    public ChangeflowException(String message) {
        super(message);
    }

    public ChangeflowException(String message, Throwable cause) {
        super(message, cause);
    }
}
