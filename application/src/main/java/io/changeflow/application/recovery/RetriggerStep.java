package io.changeflow.application.recovery;

import io.changeflow.application.batch.ReadmitBatchMember;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.application.workflow.StepToResume;
import io.changeflow.domain.request.OperationId;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Re-runs the step where a request stopped (operations recovery; audited). Nothing is written here: the step reads
 * remote state first and moves the request on from its failure state, so re-triggering is safe. A failed batch member
 * has no step of its own: it goes back to the waiting set ({@link ReadmitBatchMember}, which writes the audit entry).
 * State by state: docs/operations.md, "What a re-trigger does, state by state".
 */
public final class RetriggerStep {

    /**
     * @param operationId as sent (untrusted)
     * @param operator    the authenticated operator (written by the server, never taken from the client)
     * @param parameters  the request's parameters, already masked and truncated, for the audit entry
     */
    public record Command(String operationId, String operator, Map<String, String> parameters) {}

    /** The answer. */
    public sealed interface Result {
        /** No such request. */
        record NotFound() implements Result {}

        /** Nothing runs on its own from here (e.g. waiting for the approver, or finished). */
        record NothingToRetrigger(String reason) implements Result {}

        /**
         * @param step      the step scheduled; {@link StepKind#BATCH} for a failed batch member readmitted to the
         *                  waiting set
         * @param scheduled false when the work queue is full: nothing was scheduled, try again later
         */
        record Retriggered(OperationId operationId, StepKind step, boolean scheduled) implements Result {}
    }

    private final Operations operations;
    private final WorkQueue queue;
    private final ReadmitBatchMember readmit;
    private final AuditTrail audit;

    public RetriggerStep(Operations operations, WorkQueue queue, ReadmitBatchMember readmit, AuditLog audit, Clock clock) {
        this.operations = operations;
        this.queue = queue;
        this.readmit = readmit;
        this.audit = new AuditTrail(audit, clock);
    }

    public Result retrigger(Command command) {
        var op = operations.find(command.operationId());
        if (op.isEmpty()) {
            return new Result.NotFound();
        }
        var id = op.get().id();
        var step = StepToResume.of(op.get());
        if (step.isEmpty()) {
            return new Result.NothingToRetrigger("Nothing to re-run while the request is " + op.get().state() + ".");
        }
        if (step.get() == StepKind.BATCH) {
            return switch (readmit.readmit(new ReadmitBatchMember.Command(id.value(), command.operator(),
                    command.parameters()))) {
                case ReadmitBatchMember.Result.Readmitted readmitted -> new Result.Retriggered(id, StepKind.BATCH, true);
                case ReadmitBatchMember.Result.NotAllowed refused -> new Result.NothingToRetrigger(refused.reason());
                case ReadmitBatchMember.Result.NotFound notFound -> new Result.NotFound();
            };
        }
        var scheduled = queue.schedule(Step.first(step.get(), id.value()), Duration.ZERO);
        audit.record("retrigger", command.operator(), "RETRIGGER", id.value(),
                withStep(command.parameters(), step.get(), scheduled));
        return new Result.Retriggered(id, step.get(), scheduled);
    }

    private static Map<String, String> withStep(Map<String, String> parameters, StepKind step, boolean scheduled) {
        var all = AuditTrail.parametersOf(parameters);
        all.put("step", step.name());
        all.put("scheduled", String.valueOf(scheduled));
        return all;
    }
}
