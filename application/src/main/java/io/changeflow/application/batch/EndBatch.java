package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.workflow.Emit;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.FailureKind;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.Map;

/**
 * The batch's state writes ({@link Batches#settle}, {@link Batches#block}) with the texts its members
 * show, and the metrics: the batch's size and duration ({@code batchCompleted}) and the members that
 * stopped at a failure ({@code failed}). They are recorded after the settlement committed, by the one
 * settler that won, outside any failure handling and through {@link Emit#quietly}: nothing a metric
 * does can fail, trigger or repeat a settlement.
 */
final class EndBatch {

    private final Batches batches;
    private final BusinessMetrics metrics;

    EndBatch(Batches batches, BusinessMetrics metrics) {
        this.batches = batches;
        this.metrics = metrics;
    }

    /**
     * Batch SUCCEEDED by merge request {@code mr}: the members MERGED but those its merged commit does not bear
     * ({@code notBorne}, issue 36), which stop for a person with their reason (BATCH_GAVE_UP: HANDLE_FAILED,
     * CONTACT_MAINTAINERS; an operator re-admits or closes them).
     */
    Batch merged(Batch batch, MergeRequestRef mr, Map<OperationId, String> notBorne, String actor) {
        var note = new StepNote("Merged with batch " + batch.id() + " (merge request !" + mr.iid() + ")."
                + (notBorne.isEmpty() ? "" : " The merged commit does not bear " + notBorne.size() + " of its "
                        + batch.members().size() + " changes: they stop for a person."), actor);
        var settled = batches.settle(batch.id(), batch.status(), new Resolution.Merged(notBorne), note);
        count(settled, true);
        notBorne.keySet().forEach(member -> Emit.quietly("failed", () -> metrics.failed(StepStatus.BATCH_FAILED)));
        return settled;
    }

    /** Batch FAILED, members as the plan says (the transient ones waiting again with their retries). */
    Batch failed(Batch batch, Bisection.Plan<OperationId> plan, Map<OperationId, TransientRetries.Retry> retries,
                 FailureKind kind, String reason, String actor) {
        var note = new StepNote(failureNote(batch, plan, retries, kind, reason), actor);
        var settled = batches.settle(batch.id(), batch.status(), new Resolution.Failed(plan, retries), note);
        count(settled, false);
        // the members that stopped at a failure count like any request that did
        switch (plan) {
            case Bisection.Plan.Blame<OperationId> blame ->
                    Emit.quietly("failed", () -> metrics.failed(StepStatus.BATCH_PIPELINE_FAILED));
            case Bisection.Plan.GiveUp<OperationId> giveUp -> giveUp.members().forEach(member ->
                    Emit.quietly("failed", () -> metrics.failed(StepStatus.BATCH_FAILED)));
            case Bisection.Plan.RequeueAll<OperationId> all -> { }
            case Bisection.Plan.Split<OperationId> split -> { }
        }
        return settled;
    }

    /**
     * Issue 36: a BLOCKED batch that could not be settled by its deadline: batch FAILED, every member BATCH_GAVE_UP
     * (HANDLE_FAILED, CONTACT_MAINTAINERS) with {@code reason}, so the partition's slot is free and a person checks
     * the merge request and readmits the changes.
     */
    Batch abandoned(Batch batch, String reason, String actor) {
        var plan = new Bisection.Plan.GiveUp<>(batch.members());
        var note = new StepNote("Batch " + batch.id() + " could not be settled (" + reason + "); whether its merge request"
                + " merged is unknown, so this change leaves the batch path: contact the maintainers (they check the"
                + " merge request and readmit it).", actor);
        var settled = batches.settle(batch.id(), batch.status(), new Resolution.Failed(plan, Map.of()), note);
        count(settled, false);
        plan.members().forEach(member -> Emit.quietly("failed", () -> metrics.failed(StepStatus.BATCH_FAILED)));
        return settled;
    }

    /** RUNNING -> BLOCKED: the slot stays held until someone settles it. */
    Batch blocked(Batch batch, String reason) {
        return batches.block(batch.id(), StepNote.system("Batch " + batch.id() + " is blocked: " + reason
                + "; its outcome is unknown, an operator settles it."));
    }

    private static String failureNote(Batch batch, Bisection.Plan<OperationId> plan,
                                      Map<OperationId, TransientRetries.Retry> retries, FailureKind kind, String reason) {
        var failed = "Batch " + batch.id() + " did not merge (" + reason + ")";
        var wait = retries.values().stream().map(TransientRetries.Retry::eligibleAfter).max(Duration::compareTo)
                .map(d -> " in " + d.toMinutes() + " min or later").orElse("");
        return switch (plan) {
            case Bisection.Plan.RequeueAll<OperationId> all ->
                    failed + "; no change is blamed, every change waits for a later round" + wait + ".";
            case Bisection.Plan.Split<OperationId> split -> kind == FailureKind.TRANSIENT
                    ? failed + " again; its changes are retried in two smaller batches" + wait + ", so one that keeps "
                            + "failing cannot hold up the others."
                    : failed + "; its changes are retried in two smaller batches to find the cause.";
            case Bisection.Plan.Blame<OperationId> blame ->
                    failed + " with this change alone in it: this change is the cause; contact the maintainers.";
            case Bisection.Plan.GiveUp<OperationId> giveUp -> kind == FailureKind.TRANSIENT
                    ? failed + " with this change alone in it, again and again for reasons that looked temporary; "
                            + "it leaves the batch path; contact the maintainers (they can readmit it)."
                    : failed + " and the split limit is reached before the cause was found; contact the maintainers.";
        };
    }

    private void count(Batch settled, boolean merged) {
        // both instants are the database clock's: no skew between application servers
        var duration = Duration.between(settled.createdAt(), settled.updatedAt());
        Emit.quietly("batchCompleted", () -> metrics.batchCompleted(settled.members().size(),
                duration.isNegative() ? Duration.ZERO : duration, merged));
    }
}
