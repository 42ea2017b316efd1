package io.changeflow.domain.drift;

import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A drift item as stored: one disagreement between a target's grant file on main and the records, deduplicated per
 * (target, kind, subject and line), with its evidence and what was done about it.
 *
 * @param id          the item's number
 * @param version     increases on every status write; guarded writes pin it
 * @param target      the catalog target whose file it is about
 * @param kind        what disagrees
 * @param subject     whose line (empty for content that names no subject)
 * @param line        the line on main (for a missing line: the line the grant in effect needs)
 * @param operation   the operation the line names, or the grant in effect's
 * @param note        why, for people
 * @param evidence    the commit that last changed the line, its author and when, where GitLab said
 * @param commitSeen  the commit of main the file was read at when the item was last seen
 * @param firstSeen   when a run first saw it (this time round: a resolved item seen again starts again)
 * @param lastSeen    when a run last saw it
 * @param status      where it stands
 * @param statusActor who moved it last ({@code system} for the detection job)
 * @param statusNote  why it moved last (an acknowledgement's reason, why it was resolved)
 * @param statusAt    when it moved last
 * @param removal     the operation opened for its line: the removal taking it out, once one was opened, or while the
 *                    item is {@link DriftStatus#ADOPTED} the adopting request (cleared when it leaves ADOPTED)
 */
public record DriftItem(long id, long version, TargetKey target, DriftKind kind, Optional<SubjectId> subject,
                        String line, Optional<OperationId> operation, String note, Evidence evidence,
                        Optional<String> commitSeen, Instant firstSeen, Instant lastSeen, DriftStatus status,
                        String statusActor, String statusNote, Instant statusAt, Optional<OperationId> removal) {

    public DriftItem {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(note, "note");
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(commitSeen, "commitSeen");
        Objects.requireNonNull(firstSeen, "firstSeen");
        Objects.requireNonNull(lastSeen, "lastSeen");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(statusActor, "statusActor");
        Objects.requireNonNull(statusNote, "statusNote");
        Objects.requireNonNull(statusAt, "statusAt");
        Objects.requireNonNull(removal, "removal");
    }

    /** The deduplication key with the target and kind ({@link Finding#fingerprint}). */
    public String fingerprint() {
        return finding().fingerprint();
    }

    /** What was found, without what was done about it. */
    public Finding finding() {
        return new Finding(kind, subject, line, operation, note);
    }
}
