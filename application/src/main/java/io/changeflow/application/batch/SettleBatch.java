package io.changeflow.application.batch;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.batch.FailureKind;
import io.changeflow.domain.batch.Settlement;
import io.changeflow.domain.batch.TransientRetries;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Settles an active batch (design 3.7) for the batch step, the timeout sweep and the operators: closes an
 * open merge request first, and "merged" wins; otherwise the batch ends FAILED and its members follow the
 * bisection plan. Idempotent under races ({@link Result.AlreadySettled}); design: docs/workflow.md.
 */
public final class SettleBatch {

    private static final System.Logger LOG = System.getLogger(SettleBatch.class.getName());

    /**
     * @param kind       what kind of failure it was, when known (empty: decided by the merge request's pipeline)
     * @param reason     why the batch is settled, for the batch's and its members' notes
     * @param operator   the authenticated operator; empty when the system settles (no audit entry)
     * @param parameters the operator's parameters, already masked and truncated, for the audit entry
     * @param lastTry    the batch is past its deadline: when it cannot be settled now (GitLab unreachable, its merge
     *                   request still open), it is abandoned instead (FAILED, every member failed with the reason)
     */
    public record Command(long batchId, Optional<FailureKind> kind, String reason, Optional<String> operator,
                          Map<String, String> parameters, boolean lastTry) {
        public Command {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(operator, "operator");
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        }

        /** An operator's settle action (a stuck or blocked batch). */
        public static Command byOperator(long batchId, String operator, Map<String, String> parameters) {
            return new Command(batchId, Optional.empty(), "settled by an operator", Optional.of(operator), parameters,
                    false);
        }

        /** The workflow settles a failure of a known kind (the batch step after a failure). */
        public static Command bySystem(long batchId, FailureKind kind, String reason) {
            return new Command(batchId, Optional.of(kind), reason, Optional.empty(), Map.of(), false);
        }

        /** The workflow settles, the kind decided by the merge request's pipeline (the timeout sweep). */
        public static Command bySystem(long batchId, String reason) {
            return new Command(batchId, Optional.empty(), reason, Optional.empty(), Map.of(), false);
        }

        /** The batch sweep's settle of a batch past the batch timeout: settled if possible, else abandoned. */
        public static Command lastTry(long batchId, String reason) {
            return new Command(batchId, Optional.empty(), reason, Optional.empty(), Map.of(), true);
        }
    }

    /** The answer. */
    public sealed interface Result {
        /** No such batch. */
        record NotFound() implements Result {}

        /** The batch had already ended (or another settler ended it first): nothing was done now. */
        record AlreadySettled(Batch batch) implements Result {}

        /**
         * The merge request turned out merged: batch SUCCEEDED, members MERGED but those its merged commit does not bear
         * (issue 36: they stop for a person).
         */
        record MergedWins(Batch batch) implements Result {}

        /** The batch FAILED; its members followed {@code plan}. */
        record Failed(Batch batch, FailureKind kind, Bisection.Plan<OperationId> plan) implements Result {}

        /** The merge request is still open after the close, or GitLab could not be reached: nothing changed. */
        record RetryLater(String reason) implements Result {}
    }

    private final Batches batches;
    private final MergeRequests mergeRequests;
    private final BatchMergeRequests batchMergeRequests;
    private final EndBatch end;
    private final AuditTrail audit;
    private final BatchPolicy policy;

    public SettleBatch(Batches batches, Operations operations, Targets targets, MergeRequests mergeRequests,
                       BusinessMetrics metrics, AuditLog audit, BatchPolicy policy, Clock clock) {
        this.batches = batches;
        this.mergeRequests = mergeRequests;
        this.batchMergeRequests = new BatchMergeRequests(batches, operations, targets, mergeRequests);
        this.end = new EndBatch(batches, metrics);
        this.audit = new AuditTrail(audit, clock);
        this.policy = policy;
    }

    public Result settle(Command command) {
        var now = settleNow(command);
        var result = command.lastTry() && now instanceof Result.RetryLater later ? abandon(command, later.reason()) : now;
        command.operator().ifPresent(operator -> record(command, operator, result));
        return result;
    }

    private Result settleNow(Command command) {
        var found = batches.find(command.batchId());
        if (found.isEmpty()) {
            return new Result.NotFound();
        }
        var batch = found.get();
        if (batch.status().isTerminal()) {
            return new Result.AlreadySettled(batch);
        }
        var actor = command.operator().orElse("system");
        Optional<MergeRequestRef> mr;
        MergeRequestState state;
        Optional<MergeRequests.RemoteMergeRequest> remote;
        Map<OperationId, String> notBorne = Map.of();
        try {
            mr = batchMergeRequests.find(batch);
            if (mr.isEmpty()) {
                state = MergeRequestState.ABSENT;
                remote = Optional.empty();
            } else {
                var before = mergeRequests.get(mr.get().project(), mr.get().iid());
                if (Settlement.needsClose(before.state())) {
                    mergeRequests.close(mr.get().project(), mr.get().iid());
                    before = mergeRequests.get(mr.get().project(), mr.get().iid());
                }
                remote = Optional.of(before);
                state = before.state();
                if (state == MergeRequestState.MERGED) {
                    // issue 36: merged wins only for the members its merged commit bears
                    notBorne = batchMergeRequests.notBorne(batch, mr.get(), Optional.empty());
                }
            }
        } catch (ExternalCallException e) {
            LOG.log(Level.WARNING, "settling batch " + batch.id() + ": GitLab could not be reached", e);
            return new Result.RetryLater("GitLab could not be reached; nothing was changed.");
        }
        var notOnCommit = notBorne;
        try {
            return switch (Settlement.afterReread(state)) {
                case MERGED_WINS -> new Result.MergedWins(end.merged(batch, mr.orElseThrow(), notOnCommit, actor));
                case RETRY_LATER -> new Result.RetryLater("Merge request !" + mr.map(MergeRequestRef::iid).orElse(0L)
                        + " of batch " + batch.id() + " is still open after closing it; settle again shortly.");
                case FAILED -> failed(batch, command, command.kind().orElseGet(
                        () -> remote.map(this::kindFromPipeline).orElse(FailureKind.TRANSIENT)), actor);
            };
        } catch (PreemptedException e) {
            // Another settler ended the batch first: its transaction won, ours wrote nothing.
            var now = batches.find(batch.id()).orElse(batch);
            if (now.status().isTerminal()) {
                LOG.log(Level.INFO, () -> "batch " + batch.id() + " was settled meanwhile (" + now.status() + ")");
                return new Result.AlreadySettled(now);
            }
            throw e;
        }
    }

    /** Past its deadline and still not settled: FAILED, every member failed with the reason (issue 36). */
    private Result abandon(Command command, String why) {
        var batch = batches.find(command.batchId()).orElseThrow();
        if (batch.status().isTerminal()) {
            return new Result.AlreadySettled(batch);
        }
        try {
            var ended = end.abandoned(batch, command.reason() + "; " + why, command.operator().orElse("system"));
            LOG.log(Level.WARNING, () -> "batch " + batch.id() + " abandoned past its deadline (" + why + ")");
            return new Result.Failed(ended, FailureKind.TRANSIENT, new Bisection.Plan.GiveUp<>(batch.members()));
        } catch (PreemptedException e) {
            return new Result.AlreadySettled(batches.find(batch.id()).orElse(batch));
        }
    }

    private Result failed(Batch batch, Command command, FailureKind kind, String actor) {
        var outcome = kind == FailureKind.TRANSIENT
                ? TransientRetries.afterFailure(batch.members(), batch.depth(), batches.transientFailures(batch.id()),
                        policy.transientRetry())
                : new TransientRetries.Outcome<>(Bisection.plan(batch.members(), batch.depth(), policy.maxSplits(), kind),
                        Map.<OperationId, TransientRetries.Retry>of());
        var plan = outcome.plan();
        var retries = outcome.retries();
        var settled = end.failed(batch, plan, retries, kind, command.reason(), actor);
        LOG.log(Level.INFO, () -> "batch " + batch.id() + " failed (" + kind + ", " + command.reason() + "): "
                + plan.getClass().getSimpleName());
        return new Result.Failed(settled, kind, plan);
    }

    /**
     * A failed head pipeline (GitLab's {@code head_pipeline}: merged-results and detached pipelines included) is
     * deterministic: a member's change broke it. Anything else (running, canceled, manual, skipped, none, unknown)
     * says nothing about the members and blames no one (as does a batch without a merge request).
     */
    private FailureKind kindFromPipeline(MergeRequests.RemoteMergeRequest remote) {
        try {
            var pipeline = mergeRequests.headPipeline(remote);
            return pipeline.filter(p -> p.status() == MergeRequests.PipelineStatus.FAILED).isPresent()
                    ? FailureKind.DETERMINISTIC
                    : FailureKind.TRANSIENT;
        } catch (ExternalCallException e) {
            LOG.log(Level.WARNING, "could not read the pipeline of !" + remote.iid() + "; blaming no one", e);
            return FailureKind.TRANSIENT;
        }
    }

    private void record(Command command, String operator, Result result) {
        var parameters = AuditTrail.parametersOf(command.parameters());
        parameters.put("result", result.getClass().getSimpleName());
        audit.record("settle-batch", operator, "SETTLE_BATCH", "batch:" + command.batchId(), parameters);
    }
}
