package io.changeflow.application.callback;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The deploy pipeline's report that a merge request is in effect. Deduplicated by the delivery's own
 * ID ({@code webhook-id}); the report is stored (it feeds reconciliation's watermark and exact
 * matching), then the requests it covers advance through {@link MarkDeployed}, the same advancing
 * method reconciliation uses, so under a race the "validated" metric still counts once. With
 * {@code operationIds} in the report exactly those advance; without, the operations whose merge
 * request is the reported one. Earlier merge requests whose own report was lost are left to
 * reconciliation, which waits {@code minAge} so a late report is not taken for a lost one.
 */
public final class HandleDeployCallback {

    /** The inbox source name of deploy callbacks. */
    public static final String SOURCE = "deploy";
    /** The only status that means "in effect". */
    public static final String SUCCESS = CallbackInbox.IN_EFFECT;

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

    public HandleDeployCallback(CallbackInbox inbox, Operations operations, MarkDeployed markDeployed) {
        this.inbox = inbox;
        this.operations = operations;
        this.markDeployed = markDeployed;
    }

    public Result handle(Command command) {
        if (!inbox.firstDelivery(SOURCE, command.deliveryId())) {
            return new Result(CallbackAnswer.DUPLICATE, 0);
        }
        try {
            return process(command);
        } catch (RuntimeException e) {
            inbox.forget(SOURCE, command.deliveryId());
            throw e;
        }
    }

    private Result process(Command command) {
        if (!SUCCESS.equals(Optional.ofNullable(command.status()).orElse("").trim().toLowerCase(Locale.ROOT))) {
            LOG.log(Level.WARNING, () -> "deploy of " + command.projectId() + " !" + command.mrIid()
                    + " reported '" + command.status() + "'; nothing advances");
            return new Result(CallbackAnswer.PROCESSED, 0);
        }
        var named = command.operationIds().stream().map(OperationId::parse).flatMap(Optional::stream).distinct().toList();
        inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS, named);
        var covered = named.isEmpty()
                ? operations.findByMergeRequest(command.projectId(), command.mrIid()).stream().map(Operation::id).toList()
                : named;
        var note = new StepNote("In effect: the deploy pipeline reported merge request !" + command.mrIid() + ".", SOURCE);
        var advanced = (int) covered.stream().filter(id -> markDeployed.markDeployed(id, note).isPresent()).count();
        return new Result(CallbackAnswer.PROCESSED, advanced);
    }
}
