package io.changeflow.application.workflow;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.time.Clock;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the operators' actions on one request share: the request as sent, the look-up of the operation and
 * the audit entry of an answer (masked parameters plus the result's name), under the action's name.
 */
public final class AuditedOperatorAction {

    private final Operations operations;
    private final AuditTrail audit;
    private final String action;

    /** @param action the audit action; the entry's ID starts with it in lower case */
    public AuditedOperatorAction(Operations operations, AuditLog audit, Clock clock, String action) {
        this.operations = operations;
        this.audit = new AuditTrail(audit, clock);
        this.action = action;
    }

    /** {@code notFound} for an unknown or malformed ID (not audited: there is no subject); else {@code act}, audited. */
    public <R> R run(OperatorCommand command, Supplier<R> notFound, Function<Operation, R> act) {
        var found = operations.find(command.operationId());
        if (found.isEmpty()) {
            return notFound.get();
        }
        var result = Objects.requireNonNull(act.apply(found.get()), "result");
        record(command, found.get().id(), result);
        return result;
    }

    /** Writes the audit entry of {@code result}, the answer to {@code command} on the request {@code id}. */
    public void record(OperatorCommand command, OperationId id, Object result) {
        var parameters = AuditTrail.parametersOf(command.parameters());
        parameters.put("result", result.getClass().getSimpleName());
        audit.record(action.toLowerCase(Locale.ROOT), command.operator(), action, id.value(), parameters);
    }
}
