package io.changeflow.application.drift;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Removes the line of a drift item through the normal workflow (issue 36): a removal of exactly that line
 * ({@link io.changeflow.domain.state.WorkflowEvent#DRIFT_REMOVAL}: its subject, until and operation) takes the
 * subject-target row over and joins the removal round of its file (merge request, pipeline, bots, deploy confirmation);
 * confirmed, it ends REVOKED and the next detection run resolves the item. While the subject's row is owned by a
 * request in progress or in effect the item stays as it is (the next run tries again). Design: docs/workflow.md,
 * "Drift detection".
 */
public final class RemoveDriftLine {

    /** What {@link #remove} did. */
    public sealed interface Outcome {
        /** The removal was opened and admitted; the item is REMOVING. */
        record Removing(OperationId removal, DriftItem item) implements Outcome {}

        /** The subject's row is held by a request in progress or in effect, or changed meanwhile: tried again later. */
        record Busy(String why) implements Outcome {}

        /** The item's line is no grant line (nothing to remove), or the item moved on since it was read. */
        record NotRemovable(String why) implements Outcome {}
    }

    private final Operations operations;
    private final Targets targets;
    private final Batches batches;
    private final Drifts drifts;
    private final Clock clock;
    private final Supplier<OperationId> ids;

    public RemoveDriftLine(Operations operations, Targets targets, Batches batches, Drifts drifts, Clock clock) {
        this(operations, targets, batches, drifts, clock, () -> OperationId.of(UUID.randomUUID().toString()));
    }

    /** @param ids the IDs of the removal operations (seeded in tests) */
    public RemoveDriftLine(Operations operations, Targets targets, Batches batches, Drifts drifts, Clock clock,
                           Supplier<OperationId> ids) {
        this.operations = operations;
        this.targets = targets;
        this.batches = batches;
        this.drifts = drifts;
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * An operator's removal of {@code item}'s line (the console's action): the removal opened, or empty when it cannot
     * start now (the target left the catalog, the subject's row is held by a request, the line is no grant line, the
     * item moved on). The item is REMOVING once the removal is opened.
     */
    public Optional<OperationId> open(DriftItem item, String actor, String reason) {
        return targets.find(item.target())
                .map(target -> remove(target, item, actor, " " + reason))
                .flatMap(outcome -> outcome instanceof Outcome.Removing r ? Optional.of(r.removal()) : Optional.empty());
    }

    /**
     * Removes {@code item}'s line on {@code target}, as {@code actor} ({@code system} for the detection job).
     */
    public Outcome remove(Target target, DriftItem item, String actor) {
        return remove(target, item, actor, "");
    }

    private Outcome remove(Target target, DriftItem item, String actor, String why) {
        var line = GrantFile.parseLine(item.line());
        if (line.isEmpty() || !item.kind().onMain()) {
            return new Outcome.NotRemovable("the item's line is not a grant line");
        }
        if (!item.status().allows(DriftStatus.REMOVING)) {
            return new Outcome.NotRemovable("the item is " + item.status());
        }
        var grant = line.get();
        var row = operations.binding(grant.subject(), target.key());
        if (row.isPresent() && !row.get().status().isReappliable()) {
            return new Outcome.Busy(grant.subject() + "'s row is " + row.get().status());
        }
        var id = ids.get();
        var detail = "Drift on main (" + item.kind() + "): the line '" + item.line()
                + "' is removed through the workflow." + why;
        Operations.OpenResult opened;
        try {
            opened = operations.openDriftRemoval(new ChangeRequest(id, actor, target.key(), grant.subject(), detail,
                    grant.until()), grant.operationId(), detail);
        } catch (PreemptedException e) {
            return new Outcome.Busy(grant.subject() + "'s row changed meanwhile");
        }
        if (opened instanceof Operations.OpenResult.Blocked blocked) {
            return new Outcome.Busy(grant.subject() + "'s row is " + blocked.existing().status());
        }
        batches.admit(id, target.removalPartition());
        var moved = drifts.move(item, DriftStatus.REMOVING, actor, "Removal " + id + " takes the line out.",
                clock.instant(), Optional.of(id));
        // the removal runs either way; an item that moved meanwhile is resolved by the next run once the line is gone
        return moved.<Outcome>map(m -> new Outcome.Removing(id, m))
                .orElseGet(() -> new Outcome.Removing(id, item));
    }
}
