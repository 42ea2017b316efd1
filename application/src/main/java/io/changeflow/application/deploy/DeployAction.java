package io.changeflow.application.deploy;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.workflow.AuditedOperatorAction;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the operator's deploy actions share: the table's event each applies, the audited run on the request the
 * command names, and the request read again after a write that lost a race.
 */
final class DeployAction {

    private final WorkflowEvent event;
    private final Operations operations;
    private final AuditedOperatorAction audited;

    DeployAction(WorkflowEvent event, String action, Operations operations, AuditLog audit, Clock clock) {
        this.event = event;
        this.operations = operations;
        this.audited = new AuditedOperatorAction(operations, audit, clock, action);
    }

    /** Whether the table allows {@code event} from the binding status {@code status}. */
    static boolean allowedFrom(WorkflowEvent event, BindingStatus status) {
        return Transitions.bindingsAllowing(event).contains(status);
    }

    /** The binding status of {@code op}, as a person reads it. */
    static String describe(Operation op) {
        return op.binding().map(Enum::name).orElse("replaced by a newer request");
    }

    /** Whether the table allows this action's event for {@code op}: never once a newer request replaced it. */
    boolean allows(Operation op) {
        return op.binding().filter(status -> allowedFrom(event, status)).isPresent();
    }

    /** {@link AuditedOperatorAction#run} on the request {@code command} names. */
    <R> R run(DeployActionCommand command, Supplier<R> notFound, Function<Operation, R> act) {
        return audited.run(command, notFound, act);
    }

    /** {@code op} as it is now, read again (after a write that lost a race; a request is never deleted). */
    Operation now(Operation op) {
        return operations.find(op.id()).orElseThrow();
    }
}
