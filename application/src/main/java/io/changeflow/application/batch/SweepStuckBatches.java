package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.state.BatchStatus;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The batch timeout sweep: a batch whose instance crashed is finished or settled, never leaked (ages by the
 * database clock); a BLOCKED batch nobody settles is settled again; any active batch older than the batch timeout
 * is settled as a last try whatever step it still holds, and abandoned when it cannot be (issue 36), so its slot is
 * free by the timeout plus one sweep interval. The three passes: docs/workflow.md.
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
        var unblocking = 0;
        var timedOut = new HashSet<Long>();
        for (var batch : batches.activeOlderThan(policy.timeout())) {
            timedOut.add(batch.id());
            if (lastTryScheduled(batch.id())) {
                continue;
            }
            var blocked = batch.status() == BatchStatus.BLOCKED;
            var reason = (blocked ? "it stayed blocked and was not settled" : "it did not finish") + " within " + timeout();
            // replaces a pending settle step of the batch (same instance); a batch step it still holds stays and, when it
            // runs, finds the batch ended and writes nothing (MergeBatch)
            if (queue.schedule(SettleBatchStep.lastTry(batch.id(), reason), Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " is " + batch.status() + " for longer than "
                        + policy.timeout() + "; settling it (last try)");
                if (blocked) {
                    unblocking++;
                } else {
                    settling++;
                }
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
        return new Result(settling, resumed, unblocking + unblock(timedOut));
    }

    /** Whether the batch's settle step pending (or running) now is a last try already (then it is left to run). */
    private boolean lastTryScheduled(long batchId) {
        return queue.scheduled(StepKind.SETTLE_BATCH, String.valueOf(batchId))
                .filter(scheduled -> SettleBatchStep.isLastTry(scheduled.step())).isPresent();
    }

    /**
     * BLOCKED batches quiet for {@link BatchPolicy#lostTaskAfter()} with no step of theirs, younger than the batch
     * timeout ({@code timedOut} has the older ones): settled again (each settle step looks a few times, so a GitLab
     * outage is retried at every sweep run).
     */
    private int unblock(Set<Long> timedOut) {
        var unblocking = 0;
        for (var batch : batches.blockedOlderThan(policy.lostTaskAfter())) {
            var ref = String.valueOf(batch.id());
            if (timedOut.contains(batch.id()) || queue.isScheduled(StepKind.BATCH, ref)
                    || queue.isScheduled(StepKind.SETTLE_BATCH, ref)) {
                continue;
            }
            if (queue.schedule(SettleBatchStep.first(batch.id(), "it stayed blocked and was not settled"),
                    Duration.ZERO)) {
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " is blocked and nobody settles it; settling it");
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
