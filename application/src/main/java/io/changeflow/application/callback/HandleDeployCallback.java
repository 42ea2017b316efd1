package io.changeflow.application.callback;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The deploy pipeline's report that a merge request is in effect ({@value #SUCCESS}) or failed
 * ({@value #FAILED}): deduplicated by its {@code webhook-id}, stored, then the requests it covers advance
 * through {@link MarkDeployed}. Design: docs/workflow.md.
 */
public final class HandleDeployCallback {

    /** The inbox source name of deploy callbacks. */
    public static final String SOURCE = "deploy";
    /** The only status that means "in effect". */
    public static final String SUCCESS = CallbackInbox.IN_EFFECT;
    /** The status that means "rolling the change out failed". */
    public static final String FAILED = "failed";

    private static final System.Logger LOG = System.getLogger(HandleDeployCallback.class.getName());

    /**
     * A verified deploy report.
     *
     * @param deliveryId   the delivery's own ID ({@code webhook-id})
     * @param operationIds as sent (untrusted); empty when the pipeline does not name them
     */
    public record Command(String deliveryId, String projectId, long mrIid, String status, List<String> operationIds) {
        public Command {
            Objects.requireNonNull(deliveryId, "deliveryId");
            Objects.requireNonNull(projectId, "projectId");
            operationIds = operationIds == null ? List.of() : List.copyOf(operationIds);
        }
    }

    /** The answer and how many requests this delivery moved to "in effect". */
    public record Result(CallbackAnswer answer, int advanced) {}

    private final CallbackInbox inbox;
    private final Operations operations;
    private final MarkDeployed markDeployed;
    private final StateChanges changes;

    public HandleDeployCallback(CallbackInbox inbox, Operations operations, MarkDeployed markDeployed, StateChanges changes) {
        this.inbox = inbox;
        this.operations = operations;
        this.markDeployed = markDeployed;
        this.changes = changes;
    }

    public Result handle(Command command) {
        return inbox.processOnce(SOURCE, command.deliveryId(), () -> process(command), () -> redelivered(command));
    }

    private Result process(Command command) {
        var status = statusOf(command);
        if (FAILED.equals(status)) {
            var note = new StepNote("Deploy failed: the deploy pipeline reported that rolling out merge request !"
                    + command.mrIid() + " failed; the change is not live.", SOURCE);
            var failed = covered(command).stream()
                    .filter(id -> changes.applyIfAllowed(id, WorkflowEvent.DEPLOY_REPORTED_FAILED, note).isPresent()).count();
            LOG.log(Level.WARNING, () -> "deploy of " + command.projectId() + " !" + command.mrIid() + " reported failed; "
                    + failed + " request(s) marked DEPLOY_FAILED");
            return new Result(CallbackAnswer.PROCESSED, 0);
        }
        if (!SUCCESS.equals(status)) {
            LOG.log(Level.WARNING, () -> "deploy of " + command.projectId() + " !" + command.mrIid()
                    + " reported '" + command.status() + "'; nothing advances");
            return new Result(CallbackAnswer.PROCESSED, 0);
        }
        inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS, named(command));
        var covered = covered(command);
        var note = new StepNote("In effect: the deploy pipeline reported merge request !" + command.mrIid() + ".", SOURCE);
        var advanced = (int) covered.stream().filter(id -> markDeployed.markDeployed(id, note).isPresent()).count();
        return new Result(CallbackAnswer.PROCESSED, advanced);
    }

    /** A repeat: a success report is applied again to the requests of the reported merge request still waiting. */
    private Result redelivered(Command command) {
        var status = statusOf(command);
        if (!SUCCESS.equals(status)) {
            return new Result(CallbackAnswer.DUPLICATE, 0);
        }
        inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS, named(command));
        var waiting = covered(command).stream().map(operations::find).flatMap(Optional::stream)
                .filter(op -> op.mergeRequest().map(mr -> mr.project().equals(command.projectId())
                        && mr.iid() == command.mrIid()).orElse(false))
                .toList();
        var note = new StepNote("In effect: the deploy pipeline reported merge request !" + command.mrIid()
                + " (a repeated delivery; the first one was recorded but not applied).", SOURCE);
        // pinned to the version read: a request that moved on meanwhile is never overwritten
        var advanced = (int) waiting.stream().filter(op -> markDeployed.markDeployed(op, note).isPresent()).count();
        if (advanced > 0) {
            LOG.log(Level.WARNING, () -> "deploy report " + command.deliveryId() + " was recorded but not applied (the"
                    + " instance stopped in between); its repeated delivery moved " + advanced + " request(s) to in effect");
        }
        return new Result(CallbackAnswer.DUPLICATE, advanced);
    }

    /** The report's status as compared: trimmed, lower case, "" when absent. */
    private static String statusOf(Command command) {
        return Optional.ofNullable(command.status()).orElse("").trim().toLowerCase(Locale.ROOT);
    }

    private static List<OperationId> named(Command command) {
        return command.operationIds().stream().map(OperationId::parse).flatMap(Optional::stream).distinct().toList();
    }

    /** The requests a report covers: exactly those it names, or else the operations of its merge request. */
    private List<OperationId> covered(Command command) {
        var named = named(command);
        return named.isEmpty()
                ? operations.findByMergeRequest(command.projectId(), command.mrIid()).stream().map(Operation::id).toList()
                : named;
    }
}
