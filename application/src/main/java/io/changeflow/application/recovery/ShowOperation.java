package io.changeflow.application.recovery;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Everything about one request for an operator: the request view, its subject-target row (whoever
 * owns it now), both layers' history, the audit entries about it and the actions the transition table
 * allows from here.
 */
public final class ShowOperation {

    /** @param operationId as sent (untrusted) */
    public record Command(String operationId) {}

    /**
     * @param retriggerStep the step a re-trigger would run, when {@link OperatorAction#RETRIGGER} is allowed
     */
    public record Details(RequestView request, Optional<Binding> binding, List<HistoryEntry> history,
                          List<AuditLog.Entry> audit, Set<OperatorAction> allowedActions,
                          Optional<StepKind> retriggerStep) {}

    private final Operations operations;
    private final AuditLog audit;

    public ShowOperation(Operations operations, AuditLog audit) {
        this.operations = operations;
        this.audit = audit;
    }

    public Optional<Details> show(Command command) {
        var op = operations.find(command.operationId());
        if (op.isEmpty()) {
            return Optional.empty();
        }
        var history = operations.history(op.get().id());
        var retrigger = StepToResume.of(op.get());
        return Optional.of(new Details(RequestView.read(op.get(), history, operations),
                operations.binding(op.get().subject(), op.get().target()), history, audit.about(op.get().id().value()),
                allowedActions(op.get(), retrigger.isPresent()), retrigger));
    }

    static Set<OperatorAction> allowedActions(Operation op, boolean retriggerable) {
        var actions = EnumSet.noneOf(OperatorAction.class);
        if (retriggerable) {
            actions.add(OperatorAction.RETRIGGER);
        }
        if (Transitions.check(op.state(), WorkflowEvent.CLOSED_BY_OPERATOR).allowed()) {
            actions.add(OperatorAction.CLOSE);
        }
        return actions;
    }
}
