package io.changeflow.application.port.out;

import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the stored requests, batches and deploy reports add up to, for the operations overview: a fixed
 * number of aggregate statements however many rows there are (nothing is read per row). Read-only, no
 * transaction held; each figure is consistent on its own, not with the others.
 */
public interface Activity {

    /**
     * Non-terminal requests in one state (both layers).
     *
     * @param oldestWrite    the earliest last state write among them (the longest waiting one)
     * @param earliestExpiry the earliest {@code expiresAt} among them, when any has one (it bounds the approval deadline)
     */
    record StateGroup(BindingStatus status, StepStatus step, long count, Instant oldestWrite, Optional<Instant> earliestExpiry) {
        public StateGroup {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(oldestWrite, "oldestWrite");
            Objects.requireNonNull(earliestExpiry, "earliestExpiry");
        }
    }

    /**
     * The state writes of one hour: into {@link BindingStatus#VALIDATED} (completed), into a
     * {@link BindingStatus#FAILED failed} status (failed).
     *
     * @param start the hour's first instant (UTC, whole hours)
     */
    record Hour(Instant start, long completed, long failed) {}

    /**
     * The deployment pipeline's reports received since the instant asked for.
     *
     * @param unsuccessful reports whose status is not {@code success}
     * @param latest       when the last report of all time arrived, empty when none ever did
     */
    record DeployReports(long received, long unsuccessful, Optional<Instant> latest) {}

    /**
     * A batch partition that has waiting requests or an active batch.
     *
     * @param waiting    requests waiting for a batch round
     * @param activeBatch the batch that holds the partition's slot (RUNNING or BLOCKED), empty when the slot is free
     */
    record Slot(String partition, long waiting, Optional<ActiveBatch> activeBatch) {}

    /** The batch holding a partition's slot and since when it exists. */
    record ActiveBatch(long id, BatchStatus status, Instant since) {}

    /**
     * @param byStatus how many subject-target rows are in each status (absent: none)
     * @param waiting  the non-terminal rows grouped by both layers
     * @param hours    the hours since the instant asked for that had any completion or failure, oldest first
     */
    record Snapshot(Map<BindingStatus, Long> byStatus, List<StateGroup> waiting, List<Hour> hours,
                    DeployReports deployReports, List<Slot> slots) {
        public Snapshot {
            byStatus = Map.copyOf(byStatus);
            waiting = List.copyOf(waiting);
            hours = List.copyOf(hours);
            Objects.requireNonNull(deployReports, "deployReports");
            slots = List.copyOf(slots);
        }
    }

    /**
     * Reads the snapshot.
     *
     * @param hoursSince   the first hour of the completions and failures (state writes at or after it)
     * @param reportsSince the start of the deploy reports counted
     */
    Snapshot read(Instant hoursSince, Instant reportsSince);

    /**
     * A value that changes whenever {@link #read} with {@code reportsSince} would answer differently, read from a few
     * index reads that do none of {@link #read}'s counting over all rows: for conditional reads of the overview
     * (issue 33). Equal values mean the same snapshot; the value says nothing else (compare it, never parse it). The
     * hours' window is the caller's to add (it moves with the clock, not with a write).
     */
    String version(Instant reportsSince);
}
