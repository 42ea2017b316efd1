package io.changeflow.application.deploy;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Clock;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the operators' deploy actions share: the request as sent, the look-up of the operation and
 * the audit entry of every answer (masked parameters plus the result's name).
 */
final class OperatorDeployAction {

    private final Operations operations;
    private final AuditLog audit;
    private final Clock clock;
    private final String action;

    OperatorDeployAction(Operations operations, AuditLog audit, Clock clock, String action) {
        this.operations = operations;
        this.audit = audit;
        this.clock = clock;
        this.action = action;
    }

    /** {@code notFound} for an unknown or malformed ID (not audited: there is no subject); else {@code act}, audited. */
    <R> R run(DeployActionCommand command, Supplier<R> notFound, Function<Operation, R> act) {
        var found = OperationId.parse(command.operationId()).flatMap(operations::find);
        if (found.isEmpty()) {
            return notFound.get();
        }
        var result = Objects.requireNonNull(act.apply(found.get()), "result");
        var parameters = new TreeMap<>(command.parameters());
        parameters.put("result", result.getClass().getSimpleName());
        audit.record(new AuditLog.Entry(action.toLowerCase(Locale.ROOT) + ":" + UUID.randomUUID(), command.operator(),
                action, found.get().id().value(), parameters, clock.instant()));
        return result;
    }

    /** The request's binding status as it is now, read again (after a write that lost a race). */
    Optional<BindingStatus> bindingNow(OperationId id) {
        return operations.find(id).flatMap(Operation::binding);
    }

    /** The binding status now, as a person reads it. */
    static String describe(Optional<BindingStatus> binding) {
        return binding.map(Enum::name).orElse("replaced by a newer request");
    }
}
