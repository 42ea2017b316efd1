package io.changeflow.application.deploy;

import io.changeflow.application.workflow.OperatorCommand;
import java.util.Map;

/**
 * An operator's deploy action on one request ({@link ConfirmDeployed}, {@link MarkDeployFailed}).
 *
 * @param operationId as sent (untrusted)
 * @param operator    the authenticated operator (written by the server, never taken from the client)
 * @param parameters  the request's parameters, already masked and truncated, for the audit entry
 */
public record DeployActionCommand(String operationId, String operator, Map<String, String> parameters)
        implements OperatorCommand {
    public DeployActionCommand {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }
}
