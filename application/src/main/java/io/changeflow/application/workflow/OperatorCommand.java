package io.changeflow.application.workflow;

import java.util.Map;

/** An operator's action on one request, as sent: what {@link AuditedOperatorAction} looks up and audits. */
public interface OperatorCommand {

    /** The request's ID as sent (untrusted). */
    String operationId();

    /** The authenticated operator (written by the server, never taken from the client). */
    String operator();

    /** The request's parameters, already masked and truncated, for the audit entry; {@code null} reads as none. */
    Map<String, String> parameters();
}
