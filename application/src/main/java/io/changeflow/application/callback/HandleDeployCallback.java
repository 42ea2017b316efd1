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
import java.util.stream.Collectors;

/**
 * The deploy pipeline's report that a merge request is in effect ({@value #SUCCESS}) or failed
 * ({@value #FAILED}): deduplicated by its {@code webhook-id}, stored, then the requests it covers advance
 * through {@link MarkDeployed}. A report covers only operations merged by the merge request it names:
 * listed IDs of other operations are ignored and counted ({@link Result#ignored()}), so the text a
 * requester controls in a description can never make a report claim someone else's change.
 * Design: docs/workflow.md.
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

    /**
     * The answer, how many requests this delivery moved to "in effect", and how many of the IDs it listed
     * were ignored because they are not operations of the reported merge request.
     */
    public record Result(CallbackAnswer answer, int advanced, int ignored) {
        public Result(CallbackAnswer answer, int advanced) {
            this(answer, advanced, 0);
        }
    }

    /** The operations of the reported merge request the report covers, and how many listed IDs did not belong. */
    private record Covered(List<Operation> operations, int ignored) {
        List<OperationId> ids() {
            return operations.stream().map(Operation::id).toList();
        }
    }

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
        var covered = covered(command);
        if (FAILED.equals(status)) {
            var note = new StepNote("Deploy failed: the deploy pipeline reported that rolling out merge request !"
                    + command.mrIid() + " failed; the change is not live.", SOURCE);
            var failed = covered.ids().stream()
                    .filter(id -> changes.applyIfAllowed(id, WorkflowEvent.DEPLOY_REPORTED_FAILED, note).isPresent()).count();
            LOG.log(Level.WARNING, () -> "deploy of merge request !" + command.mrIid() + " reported failed; "
                    + failed + " request(s) marked DEPLOY_FAILED");
            return new Result(CallbackAnswer.PROCESSED, 0, covered.ignored());
        }
        if (!SUCCESS.equals(status)) {
            LOG.log(Level.WARNING, () -> "deploy of merge request !" + command.mrIid() + " reported a status other than "
                    + SUCCESS + " or " + FAILED + "; nothing advances");
            return new Result(CallbackAnswer.PROCESSED, 0, covered.ignored());
        }
        inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS, recorded(command, covered));
        var note = new StepNote("In effect: the deploy pipeline reported merge request !" + command.mrIid() + ".", SOURCE);
        var advanced = (int) covered.ids().stream().filter(id -> markDeployed.markDeployed(id, note).isPresent()).count();
        return new Result(CallbackAnswer.PROCESSED, advanced, covered.ignored());
    }

    /** A repeat: a success report is applied again to the requests of the reported merge request still waiting. */
    private Result redelivered(Command command) {
        var status = statusOf(command);
        if (!SUCCESS.equals(status)) {
            return new Result(CallbackAnswer.DUPLICATE, 0);
        }
        var covered = covered(command);
        inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS, recorded(command, covered));
        var waiting = covered.operations();
        var note = new StepNote("In effect: the deploy pipeline reported merge request !" + command.mrIid()
                + " (a repeated delivery; the first one was recorded but not applied).", SOURCE);
        // pinned to the version read: a request that moved on meanwhile is never overwritten
        var advanced = (int) waiting.stream().filter(op -> markDeployed.markDeployed(op, note).isPresent()).count();
        if (advanced > 0) {
            LOG.log(Level.WARNING, () -> "deploy report " + command.deliveryId() + " was recorded but not applied (the"
                    + " instance stopped in between); its repeated delivery moved " + advanced + " request(s) to in effect");
        }
        return new Result(CallbackAnswer.DUPLICATE, advanced, covered.ignored());
    }

    /** The report's status as compared: trimmed, lower case, "" when absent. */
    private static String statusOf(Command command) {
        return Optional.ofNullable(command.status()).orElse("").trim().toLowerCase(Locale.ROOT);
    }

    /** The distinct IDs the report lists, as sent. */
    private static List<String> listed(Command command) {
        return command.operationIds().stream().distinct().toList();
    }

    /** What the inbox stores as the report's named operations: only those of its merge request, and only when it lists any. */
    private static List<OperationId> recorded(Command command, Covered covered) {
        return listed(command).isEmpty() ? List.of() : covered.ids();
    }

    /**
     * The operations a report covers: those of its merge request (read back, never taken from the report),
     * narrowed to the IDs it lists when it lists any. A listed ID that is not one of them is ignored and counted.
     */
    private Covered covered(Command command) {
        var ofMergeRequest = operations.findByMergeRequest(command.projectId(), command.mrIid());
        var listed = listed(command);
        if (listed.isEmpty()) {
            return new Covered(ofMergeRequest, 0);
        }
        var wanted = listed.stream().map(OperationId::parse).flatMap(Optional::stream).collect(Collectors.toSet());
        var belonging = ofMergeRequest.stream().filter(op -> wanted.contains(op.id())).toList();
        return new Covered(belonging, listed.size() - belonging.size());
    }
}
