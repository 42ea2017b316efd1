package io.changeflow.application.callback;

import io.changeflow.application.approval.SubmitApproval;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The approval system's decision (design 3.3), in two layers.
 *
 * <ol>
 *   <li>Deduplication by the callback's own {@code requestId}: a repeated delivery answers DUPLICATE.
 *       If processing fails, the delivery is forgotten again so the sender's retry is processed.</li>
 *   <li>Ownership and waiting: only a callback for the operation that owns its subject-target row now
 *       (a re-application hands the row to a new operationId, so a late callback of the replaced one
 *       finds no row of its own) and that still awaits approval (SENDING or SENT: the callback may
 *       arrive before SENT is written) is accepted; anything else answers IGNORED_STALE with 2xx so
 *       the sender stops retrying.</li>
 * </ol>
 *
 * <p>The payload shape decides the order (design 3.6), not the current {@code workflow.approveFirst}
 * setting, so approvals sent before a switch and answered after it finish in their own order:
 * {@code ext.mrId} present means the merge request exists (create-first): approve and merge it next;
 * otherwise a batchable target joins the batch waiting set, any other target gets its merge request
 * created. A rejection or withdrawal ends REJECTED; in the create-first order the merge request is
 * closed too. The state write is the table's {@code applyIfAllowed}: of two racing deliveries only
 * one moves the state, and only that one schedules the next step.
 */
public final class HandleApprovalCallback {

    /** The inbox source name of approval callbacks. */
    public static final String SOURCE = "approval";

    private static final System.Logger LOG = System.getLogger(HandleApprovalCallback.class.getName());

    /** The approver's decision. */
    public enum Decision { APPROVED, REJECTED, WITHDRAWN }

    /**
     * A verified callback.
     *
     * @param requestId   the callback's own delivery ID (deduplication)
     * @param operationId as sent (untrusted)
     * @param ext         extension fields; {@code mrId} present means the create-first order
     */
    public record Command(String requestId, String operationId, Decision decision, Map<String, String> ext) {
        public Command {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(decision, "decision");
            ext = ext == null ? Map.of() : Map.copyOf(ext);
        }
    }

    private final CallbackInbox inbox;
    private final Operations operations;
    private final Targets targets;
    private final Batches batches;
    private final StateChanges changes;
    private final StepLauncher launcher;

    public HandleApprovalCallback(CallbackInbox inbox, Operations operations, Targets targets, Batches batches,
                                  StateChanges changes, StepLauncher launcher) {
        this.inbox = inbox;
        this.operations = operations;
        this.targets = targets;
        this.batches = batches;
        this.changes = changes;
        this.launcher = launcher;
    }

    public CallbackAnswer handle(Command command) {
        if (!inbox.firstDelivery(SOURCE, command.requestId())) {
            return CallbackAnswer.DUPLICATE;
        }
        try {
            return process(command);
        } catch (RuntimeException e) {
            inbox.forget(SOURCE, command.requestId());
            throw e;
        }
    }

    private CallbackAnswer process(Command command) {
        var id = OperationId.parse(command.operationId());
        var op = id.flatMap(operations::find);
        if (op.isEmpty() || !op.get().binding().map(BindingStatus::isAwaitingApproval).orElse(false)) {
            LOG.log(Level.INFO, () -> "approval callback " + command.requestId() + " for " + command.operationId()
                    + " is stale: " + op.map(o -> o.state().toString()).orElse("no such operation"));
            return CallbackAnswer.IGNORED_STALE;
        }
        var mrId = Optional.ofNullable(command.ext().get(SubmitApproval.MR_ID)).filter(s -> !s.isBlank());
        return switch (command.decision()) {
            case APPROVED -> approved(op.get(), mrId);
            case REJECTED -> ended(op.get(), WorkflowEvent.APPROVAL_REJECTED, "The approver rejected the request.", mrId);
            case WITHDRAWN -> ended(op.get(), WorkflowEvent.APPROVAL_WITHDRAWN, "The request was withdrawn.", mrId);
        };
    }

    private CallbackAnswer approved(Operation op, Optional<String> mrId) {
        if (mrId.isPresent()) {
            var recorded = op.mergeRequest().map(mr -> String.valueOf(mr.iid()));
            if (recorded.isPresent() && !recorded.get().equals(mrId.get().trim())) {
                LOG.log(Level.WARNING, () -> "approval of " + op.id() + " names !" + mrId.get() + " but !" + recorded.get()
                        + " is recorded; handling the recorded one");
            }
            if (write(op, WorkflowEvent.APPROVAL_GRANTED_MERGE, "Approved; approving and merging the merge request next.")) {
                launcher.launch(op.id(), StepKind.HANDLE, WorkflowEvent.HANDLE_ERROR);
                return CallbackAnswer.PROCESSED;
            }
            return CallbackAnswer.IGNORED_STALE;
        }
        var target = targets.find(op.target());
        if (target.map(Target::batchable).orElse(false)) {
            if (write(op, WorkflowEvent.APPROVAL_GRANTED_BATCH, "Approved; waiting for the next batch round.")) {
                // Admission is idempotent; if it fails here the timeout sweep admits the waiting request again.
                batches.admit(op.id(), target.get().partition());
                return CallbackAnswer.PROCESSED;
            }
            return CallbackAnswer.IGNORED_STALE;
        }
        if (write(op, WorkflowEvent.APPROVAL_GRANTED_CREATE, "Approved; creating the merge request next.")) {
            launcher.launch(op.id(), StepKind.CREATE, WorkflowEvent.CREATE_ERROR);
            return CallbackAnswer.PROCESSED;
        }
        return CallbackAnswer.IGNORED_STALE;
    }

    private CallbackAnswer ended(Operation op, WorkflowEvent event, String detail, Optional<String> mrId) {
        if (!write(op, event, detail)) {
            return CallbackAnswer.IGNORED_STALE;
        }
        if (mrId.isPresent() || op.mergeRequest().isPresent()) {
            launcher.launchClose(op.id());
        }
        return CallbackAnswer.PROCESSED;
    }

    /** Applies the decision if the table still allows it (a concurrent delivery may have won). */
    private boolean write(Operation op, WorkflowEvent event, String detail) {
        return changes.applyIfAllowed(op.id(), event, new StepNote(detail, SOURCE)).isPresent();
    }
}
