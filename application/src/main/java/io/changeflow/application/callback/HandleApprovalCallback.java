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
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The approval system's decision (design 3.3): deduplicated by the callback's {@code requestId}, accepted
 * only for the operation that owns its row and still awaits approval (else IGNORED_STALE), then the next
 * step by the order the payload names. The approval check hands its decisions here too. Design:
 * docs/workflow.md.
 */
public final class HandleApprovalCallback {

    /** The inbox source name of approval callbacks. */
    public static final String SOURCE = "approval";

    private static final System.Logger LOG = System.getLogger(HandleApprovalCallback.class.getName());

    /** Where a decision is taken: the states the transition table lets a rejection start from (same as an approval). */
    private static final Set<BindingStatus> DECIDABLE = Transitions.bindingsAllowing(WorkflowEvent.APPROVAL_REJECTED);

    /** The approver's decision. */
    public enum Decision { APPROVED, REJECTED, WITHDRAWN }

    /**
     * A verified callback.
     *
     * @param requestId   the callback's own delivery ID (deduplication)
     * @param operationId as sent (untrusted)
     * @param ext         extension fields; {@code mrId} present means the create-first order
     * @param note        the person-readable note of a rejection or withdrawal; empty: the standard one
     * @param approver    who decided ({@code decidedBy}, the approver's account); empty when the approval system did not
     *                    say, and then only its own separation of duties stands
     */
    public record Command(String requestId, String operationId, Decision decision, Map<String, String> ext,
                          Optional<String> note, Optional<String> approver) {
        public Command {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(decision, "decision");
            ext = ext == null ? Map.of() : Map.copyOf(ext);
            note = note == null ? Optional.empty() : note.filter(n -> !n.isBlank());
            approver = approver == null ? Optional.empty() : approver.map(String::strip).filter(a -> !a.isEmpty());
        }

        /** A callback as the approval system sends it (the standard notes), without the approver. */
        public Command(String requestId, String operationId, Decision decision, Map<String, String> ext) {
            this(requestId, operationId, decision, ext, Optional.empty(), Optional.empty());
        }

        /** This callback with {@code note} as the reason given (a blank note is none). */
        public Command withNote(String note) {
            return new Command(requestId, operationId, decision, ext, Optional.of(note), approver);
        }

        /** This callback decided by {@code approver} (a blank one is none). */
        public Command withApprover(String approver) {
            return new Command(requestId, operationId, decision, ext, note, Optional.ofNullable(approver));
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
        return inbox.processOnce(SOURCE, command.requestId(), () -> process(command),
                () -> awaitsDecision(command) ? redelivered(command) : CallbackAnswer.DUPLICATE);
    }

    /** Whether the operation the callback names still awaits a decision (nothing decided it yet). */
    private boolean awaitsDecision(Command command) {
        return operations.find(command.operationId()).flatMap(Operation::binding).map(DECIDABLE::contains).orElse(false);
    }

    /** A repeat whose first delivery never wrote its decision: processed now; DUPLICATE if another delivery won. */
    private CallbackAnswer redelivered(Command command) {
        LOG.log(Level.WARNING, () -> "approval callback " + command.requestId() + " was recorded but its decision never"
                + " written (the instance stopped in between); processing the repeated delivery");
        var answer = process(command);
        return answer == CallbackAnswer.PROCESSED ? answer : CallbackAnswer.DUPLICATE;
    }

    private CallbackAnswer process(Command command) {
        var op = operations.find(command.operationId());
        if (op.isEmpty() || !op.get().binding().map(DECIDABLE::contains).orElse(false)) {
            LOG.log(Level.INFO, () -> "approval callback " + command.requestId() + " for " + command.operationId()
                    + " is stale: " + op.map(o -> o.state().toString()).orElse("no such operation"));
            return CallbackAnswer.IGNORED_STALE;
        }
        return switch (command.decision()) {
            case APPROVED -> approved(op.get(), command);
            case REJECTED -> ended(op.get(), WorkflowEvent.APPROVAL_REJECTED,
                    command.note().orElse("The approver rejected the request."), command);
            case WITHDRAWN -> ended(op.get(), WorkflowEvent.APPROVAL_WITHDRAWN,
                    command.note().orElse("The request was withdrawn."), command);
        };
    }

    /**
     * Issue 32 item 5, separation of duties checked by us too: the role an approver holds on the request that keeps
     * their approval from counting (the requester or the subject), compared without case; empty when none.
     */
    public static Optional<String> conflictOf(Operation op, String approver) {
        if (approver.equalsIgnoreCase(op.requester())) {
            return Optional.of("the requester");
        }
        if (approver.equalsIgnoreCase(op.subject().value())) {
            return Optional.of("the subject");
        }
        return Optional.empty();
    }

    /**
     * An approval by the requester or the subject does not count: the request stays where it waits for an approver
     * (its approval deadline still ends the wait) and its detail says why.
     */
    private CallbackAnswer notCounted(Operation op, Command command, String role) {
        var approver = command.approver().orElseThrow();
        LOG.log(Level.WARNING, () -> "approval callback " + command.requestId() + " for " + op.id() + " is decided by "
                + approver + ", " + role + " of the request: it does not count (separation of duties)");
        operations.recordDetail(op.id(), op.version(), selfApprovalDetail(approver, role));
        return CallbackAnswer.PROCESSED;
    }

    /** The request's detail after an approval that does not count: who, why, and what it waits for now. */
    public static String selfApprovalDetail(String approver, String role) {
        return "The approval by " + approver + " does not count: " + approver + " is " + role + " of this request "
                + "(separation of duties). It still waits for an approver who is neither the requester nor the subject.";
    }

    /** The merge request number the callback carries in its extension fields, if any. */
    private static Optional<String> mrId(Command command) {
        return Optional.ofNullable(command.ext().get(SubmitApproval.MR_ID)).filter(s -> !s.isBlank());
    }

    private CallbackAnswer approved(Operation op, Command command) {
        var conflict = command.approver().flatMap(approver -> conflictOf(op, approver));
        if (conflict.isPresent()) {
            return notCounted(op, command, conflict.get());
        }
        if (op.kind().removes()) {
            return approvedRemoval(op);
        }
        var mrId = mrId(command);
        if (mrId.isPresent()) {
            var recorded = op.mergeRequest().map(mr -> String.valueOf(mr.iid()));
            if (recorded.isPresent() && !recorded.get().equals(mrId.get().trim())) {
                LOG.log(Level.WARNING, () -> "approval of " + op.id() + " names !" + mrId.get() + " but !" + recorded.get()
                        + " is recorded; handling the recorded one");
            }
            if (write(op, WorkflowEvent.APPROVAL_GRANTED_MERGE, "Approved; approving and merging the merge request next.",
                    actorOf(command))) {
                launcher.launch(op.id(), StepKind.HANDLE, WorkflowEvent.HANDLE_ERROR);
                return CallbackAnswer.PROCESSED;
            }
            return CallbackAnswer.IGNORED_STALE;
        }
        var target = targets.find(op.target());
        if (target.map(Target::batchable).orElse(false)) {
            if (write(op, WorkflowEvent.APPROVAL_GRANTED_BATCH, "Approved; waiting for the next batch round.",
                    actorOf(command))) {
                // Admission is idempotent; if it fails here the timeout sweep admits the waiting request again.
                batches.admit(op.id(), target.get().partition());
                return CallbackAnswer.PROCESSED;
            }
            return CallbackAnswer.IGNORED_STALE;
        }
        if (write(op, WorkflowEvent.APPROVAL_GRANTED_CREATE, "Approved; creating the merge request next.",
                actorOf(command))) {
            launcher.launch(op.id(), StepKind.CREATE, WorkflowEvent.CREATE_ERROR);
            return CallbackAnswer.PROCESSED;
        }
        return CallbackAnswer.IGNORED_STALE;
    }

    /**
     * Issue 18: an approved removal (a target with {@code removals: approval}) always takes the batch path to the
     * removal round of its file ({@link Target#partitionOf}), never a merge request of its own; the round's deploy
     * confirmation ends it EXPIRED or REVOKED. A target that left the catalog cannot be admitted: the removal waits in
     * BATCH_WAITING, where the stuck-request sweep and the operators see it.
     */
    private CallbackAnswer approvedRemoval(Operation op) {
        if (!write(op, WorkflowEvent.APPROVAL_GRANTED_BATCH, "Approved; the line is removed by the next removal round of "
                + "the grant file.")) {
            return CallbackAnswer.IGNORED_STALE;
        }
        targets.find(op.target()).ifPresent(target -> batches.admit(op.id(), target.partitionOf(op.kind())));
        return CallbackAnswer.PROCESSED;
    }

    private CallbackAnswer ended(Operation op, WorkflowEvent event, String detail, Command command) {
        if (op.kind().removes()) {
            // the grant stays in effect with its line in the file: a person decides (REMOVAL_REJECTED)
            return write(op, WorkflowEvent.REMOVAL_NOT_APPROVED, detail + " The grant stays in effect; its line stays in"
                    + " the grant file.") ? CallbackAnswer.PROCESSED : CallbackAnswer.IGNORED_STALE;
        }
        if (!write(op, event, detail)) {
            return CallbackAnswer.IGNORED_STALE;
        }
        if (mrId(command).isPresent() || op.mergeRequest().isPresent()) {
            launcher.launchClose(op.id());
        }
        return CallbackAnswer.PROCESSED;
    }

    /** Applies the decision if the table still allows it (a concurrent delivery may have won). */
    private boolean write(Operation op, WorkflowEvent event, String detail) {
        return write(op, event, detail, SOURCE);
    }

    private boolean write(Operation op, WorkflowEvent event, String detail, String actor) {
        return changes.applyIfAllowed(op.id(), event, new StepNote(detail, actor)).isPresent();
    }

    /**
     * Who an approval's state write names: the approver the callback names ({@code decidedBy}, at most 128
     * characters), so the history and the audit export say who approved; {@link #SOURCE} when it names nobody.
     */
    static String actorOf(Command command) {
        return command.approver().map(a -> a.length() > 128 ? a.substring(0, 128) : a).orElse(SOURCE);
    }
}
