package io.changeflow.application.batch;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Batches.Resolution;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.request.OperationId;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One batch round in one partition: the single code path of the recurring task and of the operators'
 * manual trigger (design 3.2): pre-check, the claim transaction ({@link Batches#claim}), then the durable
 * batch step. Design: docs/workflow.md.
 */
public final class RunBatchRound {

    static final int CLAIM_ATTEMPTS = 3;

    private static final System.Logger LOG = System.getLogger(RunBatchRound.class.getName());

    /**
     * @param partition  the partition whose waiting set is claimed
     * @param operator   the authenticated operator of a manual round; empty for the recurring task
     * @param parameters the operator's parameters, already masked and truncated, for the audit entry
     */
    public record Command(String partition, Optional<String> operator, Map<String, String> parameters) {
        public Command {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(operator, "operator");
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        }

        public static Command scheduled(String partition) {
            return new Command(partition, Optional.empty(), Map.of());
        }

        public static Command byOperator(String partition, String operator, Map<String, String> parameters) {
            return new Command(partition, Optional.of(operator), parameters);
        }
    }

    /** The answer (the API's codes: NOTHING_TO_CLAIM, SLOT_OCCUPIED, CLAIMED). */
    public sealed interface Result {
        /** The waiting set of the partition is empty (decided by the lock-free pre-check). */
        record NothingToClaim() implements Result {}

        /** Another batch of the partition is active (running or blocked). */
        record SlotOccupied() implements Result {}

        /**
         * A batch was claimed.
         *
         * @param scheduled false when the work queue was full: the batch was failed at once and its
         *                  members wait for a later round
         */
        record Claimed(long batchId, List<OperationId> members, boolean scheduled) implements Result {}
    }

    private final Batches batches;
    private final WorkQueue queue;
    private final AuditTrail audit;
    private final BatchPolicy policy;

    public RunBatchRound(Batches batches, WorkQueue queue, AuditLog audit, BatchPolicy policy, Clock clock) {
        this.batches = batches;
        this.queue = queue;
        this.audit = new AuditTrail(audit, clock);
        this.policy = policy;
    }

    public Result round(Command command) {
        var result = roundNow(command.partition());
        command.operator().ifPresent(operator -> record(command, operator, result));
        return result;
    }

    private Result roundNow(String partition) {
        if (!batches.hasWaiting(partition)) {
            return new Result.NothingToClaim();
        }
        var claim = claim(partition);
        return switch (claim) {
            case Claim.NothingToClaim nothing -> new Result.NothingToClaim();
            case Claim.SlotOccupied occupied -> new Result.SlotOccupied();
            case Claim.Claimed claimed -> {
                var batch = claimed.batch();
                if (queue.schedule(MergeBatch.first(batch.id()), Duration.ZERO)) {
                    LOG.log(Level.INFO, () -> "batch " + batch.id() + " of partition " + partition + " claimed "
                            + batch.members().size() + " requests");
                    yield new Result.Claimed(batch.id(), batch.members(), true);
                }
                LOG.log(Level.WARNING, () -> "work queue full: batch " + batch.id() + " is failed at once, its members wait again");
                batches.settle(batch.id(), batch.status(), new Resolution.Failed(new Bisection.Plan.RequeueAll<>(batch.members())),
                        StepNote.system("Batch " + batch.id() + " could not start (the system is overloaded); "
                                + "no change is blamed, every change waits for a later round."));
                yield new Result.Claimed(batch.id(), batch.members(), false);
            }
        };
    }

    private Claim claim(String partition) {
        for (var attempt = 1; ; attempt++) {
            try {
                return batches.claim(partition, policy.maxRequests());
            } catch (PreemptedException e) {
                if (attempt >= CLAIM_ATTEMPTS) {
                    throw e;
                }
                LOG.log(Level.INFO, () -> "claim in " + partition + " lost a race on a waiting request; claiming again");
            }
        }
    }

    private void record(Command command, String operator, Result result) {
        var parameters = AuditTrail.parametersOf(command.parameters());
        parameters.put("partition", command.partition());
        parameters.put("result", result.getClass().getSimpleName());
        if (result instanceof Result.Claimed claimed) {
            parameters.put("batchId", String.valueOf(claimed.batchId()));
        }
        audit.record("batch-round", operator, "BATCH_ROUND", "partition:" + command.partition(), parameters);
    }
}
