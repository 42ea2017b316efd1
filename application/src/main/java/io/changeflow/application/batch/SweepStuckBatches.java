package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashSet;

/**
 * The batch timeout sweep: a batch whose instance crashed is finished or settled, never leaked (ages by the
 * database clock, {@link Batches#runningOlderThan}); a BLOCKED batch nobody settles is settled again, and past
 * the batch timeout abandoned when it still cannot be (issue 36). The three passes: docs/workflow.md.
 */
public final class SweepStuckBatches {

    private static final System.Logger LOG = System.getLogger(SweepStuckBatches.class.getName());

    /** One sweep run (no parameters: the policy says everything). */
    public record Command() {}

    /** What one run scheduled. */
    public record Result(int settling, int resumed, int unblocking) {

        /** A run that settled no BLOCKED batch. */
        public Result(int settling, int resumed) {
            this(settling, resumed, 0);
        }
    }

    private final Batches batches;
    private final WorkQueue queue;
    private final BatchPolicy policy;

    public SweepStuckBatches(Batches batches, WorkQueue queue, BatchPolicy policy) {
        this.batches = batches;
        this.queue = queue;
        this.policy = policy;
    }

    public Result sweep(Command command) {
        var settling = 0;
        var timedOut = new HashSet<Long>();
        for (var batch : batches.runningOlderThan(policy.timeout())) {
            timedOut.add(batch.id());
            var ref = String.valueOf(batch.id());
            if (!queue.isScheduled(StepKind.SETTLE_BATCH, ref)
                    && queue.schedule(SettleBatchStep.first(batch.id(),
                            "it did not finish within " + timeout()), Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " is running for longer than " + policy.timeout()
                        + "; settling it");
                settling++;
            }
        }
        var resumed = 0;
        for (var batch : batches.runningOlderThan(policy.lostTaskAfter())) {
            var ref = String.valueOf(batch.id());
            if (timedOut.contains(batch.id()) || queue.isScheduled(StepKind.BATCH, ref)
                    || queue.isScheduled(StepKind.SETTLE_BATCH, ref)) {
                continue;
            }
            if (queue.schedule(MergeBatch.first(batch.id()), Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " lost its batch step; scheduled again");
                resumed++;
            }
        }
        return new Result(settling, resumed, unblock());
    }

    /**
     * BLOCKED batches quiet for {@link BatchPolicy#lostTaskAfter()} with no step of theirs: settled again (each
     * settle step looks a few times, so a GitLab outage is retried at every sweep run); once it is blocked for longer
     * than {@link BatchPolicy#timeout()}, a last try that abandons it when it still cannot be settled.
     */
    private int unblock() {
        var unblocking = 0;
        var pastTimeout = new HashSet<Long>();
        for (var batch : batches.blockedOlderThan(policy.timeout())) {
            pastTimeout.add(batch.id());
        }
        for (var batch : batches.blockedOlderThan(policy.lostTaskAfter())) {
            var ref = String.valueOf(batch.id());
            if (queue.isScheduled(StepKind.BATCH, ref) || queue.isScheduled(StepKind.SETTLE_BATCH, ref)) {
                continue;
            }
            var last = pastTimeout.contains(batch.id());
            var reason = "it stayed blocked and was not settled";
            var step = last ? SettleBatchStep.lastTry(batch.id(), reason + " within " + timeout())
                    : SettleBatchStep.first(batch.id(), reason);
            if (queue.schedule(step, Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " is blocked and nobody settles it; settling it"
                        + (last ? " (last try)" : ""));
                unblocking++;
            }
        }
        return unblocking;
    }

    /** The batch timeout as people read it: whole minutes, or seconds below a minute (never "0 minutes"). */
    private String timeout() {
        var timeout = policy.timeout();
        return timeout.toSeconds() % 60 == 0 && timeout.toMinutes() > 0 ? timeout.toMinutes() + " minutes"
                : timeout.toSeconds() + " s";
    }
}
