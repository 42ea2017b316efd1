package io.changeflow.application.port.out;

import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Drift items: where a target's grant file on main and the records disagree (issue 36), deduplicated per
 * (target, kind, {@link Finding#fingerprint subject and line}), and each target's baseline. Every status write
 * consults {@link DriftStatus#allows} and is guarded by the status and version read.
 */
public interface Drifts {

    /** When the target's baseline was taken (its first check); empty before it. */
    Optional<Instant> baselineOf(TargetKey target);

    /** Records that the target's baseline was taken at {@code commitSha}. Idempotent: the first one stays. */
    void markBaseline(TargetKey target, String commitSha, Instant at);

    /** The target's items in one of {@link DriftStatus#ACTIVE} (not resolved), oldest first. One query. */
    List<DriftItem> activeOn(TargetKey target);

    /**
     * One run's sightings on {@code target}, in one transaction: a finding with no item yet is inserted OPEN with its
     * evidence; one whose item is active gets its last sighting ({@code seenAt}, {@code commitSeen}) and nothing else
     * (its status, evidence and first sighting stay); one whose item was resolved is opened again (first seen now,
     * the evidence given). A fixed number of statements per sighting at most.
     *
     * @return the IDs of the items inserted or opened again (the new ones of this run)
     */
    List<Long> record(TargetKey target, Collection<Sighting> sightings, String commitSeen, Instant seenAt);

    /** A finding and the evidence read for it ({@link Evidence#NONE} for an item known already, whose evidence stays). */
    record Sighting(Finding finding, Evidence evidence) {
        public Sighting {
            Objects.requireNonNull(finding, "finding");
            Objects.requireNonNull(evidence, "evidence");
        }
    }

    /**
     * Moves the item from the status and version read ({@code read}) to {@code to}, if the table allows it, recording
     * who, why and when ({@code removal}: the operation opened for the line, the removal for {@link DriftStatus#REMOVING}
     * or the adopting request for {@link DriftStatus#ADOPTED}; empty keeps the one recorded, except that an item leaving
     * ADOPTED no longer names its adopting request).
     *
     * @return the item after the write; empty when it moved on since it was read or the table refuses the move
     *         (nothing was written)
     */
    Optional<DriftItem> move(DriftItem read, DriftStatus to, String actor, String note, Instant at,
                             Optional<OperationId> removal);

    /** The item with this ID. */
    Optional<DriftItem> find(long id);

    /**
     * Items in one of {@code statuses}, newest sighting first, at most {@code limit}, narrowed to {@code target},
     * {@code subject} and {@code kind} when given. One query.
     */
    List<DriftItem> list(Query query);

    /** What {@link #list} lists. */
    record Query(Set<DriftStatus> statuses, Optional<TargetKey> target, Optional<SubjectId> subject,
                 Optional<DriftKind> kind, int limit) {
        public Query {
            statuses = Set.copyOf(statuses);
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(kind, "kind");
        }

        /** Every item in {@code statuses}, at most {@code limit}. */
        public static Query in(Set<DriftStatus> statuses, int limit) {
            return new Query(statuses, Optional.empty(), Optional.empty(), Optional.empty(), limit);
        }
    }

    /** How many items are in {@link DriftStatus#UNHANDLED} per kind (kinds without any absent). One aggregate query. */
    Map<DriftKind, Long> countUnhandled();
}
