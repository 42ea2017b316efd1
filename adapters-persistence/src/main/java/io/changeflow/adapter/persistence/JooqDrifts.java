package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.utcValue;
import static io.changeflow.adapter.persistence.jooq.Tables.DRIFT_BASELINE;
import static io.changeflow.adapter.persistence.jooq.Tables.DRIFT_ITEM;

import io.changeflow.adapter.persistence.jooq.tables.records.DriftItemRecord;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * {@link Drifts} on {@code drift_item} and {@code drift_baseline} (V11). A run's sightings are one transaction: one
 * read of the target's items, one insert per new item, one update per item opened again, one update (per chunk) of the
 * last sighting of the rest. Status moves are guarded by id, status and version.
 */
final class JooqDrifts implements Drifts {

    private static final int NOTE_MAX = 1000;
    private static final int LINE_MAX = 1000;
    private static final int AUTHOR_MAX = 255;

    private final DSLContext dsl;

    JooqDrifts(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Optional<Instant> baselineOf(TargetKey target) {
        return dsl.select(DRIFT_BASELINE.TAKEN_AT).from(DRIFT_BASELINE).where(DRIFT_BASELINE.TARGET_KEY.eq(target.value()))
                .fetchOptional(DRIFT_BASELINE.TAKEN_AT).map(Sql::instant);
    }

    @Override
    public void markBaseline(TargetKey target, String commitSha, Instant at) {
        Sql.insertedUnlessDuplicate(dsl.insertInto(DRIFT_BASELINE)
                .set(DRIFT_BASELINE.TARGET_KEY, target.value())
                .set(DRIFT_BASELINE.COMMIT_SHA, cut(commitSha, 64))
                .set(DRIFT_BASELINE.TAKEN_AT, utcValue(at)));
    }

    @Override
    public List<DriftItem> activeOn(TargetKey target) {
        return dsl.selectFrom(DRIFT_ITEM).where(DRIFT_ITEM.TARGET_KEY.eq(target.value()))
                .and(DRIFT_ITEM.STATUS.in(names(DriftStatus.ACTIVE)))
                .orderBy(DRIFT_ITEM.ID).fetch(JooqDrifts::toItem);
    }

    @Override
    public List<Long> record(TargetKey target, Collection<Sighting> sightings, String commitSeen, Instant seenAt) {
        if (sightings.isEmpty()) {
            return List.of();
        }
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            var known = new HashMap<String, DriftItemRecord>();
            ctx.selectFrom(DRIFT_ITEM).where(DRIFT_ITEM.TARGET_KEY.eq(target.value()))
                    .fetch().forEach(r -> known.put(r.getKind() + ":" + r.getFingerprint(), r));
            var fresh = new ArrayList<Long>();
            var seenAgain = new ArrayList<Long>();
            for (var sighting : sightings) {
                var finding = sighting.finding();
                var row = known.get(finding.kind().name() + ":" + finding.fingerprint());
                if (row == null) {
                    fresh.add(insert(ctx, target, sighting, commitSeen, seenAt));
                } else if (DriftStatus.valueOf(row.getStatus()) == DriftStatus.RESOLVED) {
                    reopen(ctx, row, sighting, commitSeen, seenAt);
                    fresh.add(row.getId());
                } else {
                    seenAgain.add(row.getId());
                }
            }
            for (var chunk : Sql.chunks(seenAgain)) {
                ctx.update(DRIFT_ITEM).set(DRIFT_ITEM.LAST_SEEN, utcValue(seenAt))
                        .set(DRIFT_ITEM.COMMIT_SEEN, cut(commitSeen, 64))
                        .where(DRIFT_ITEM.ID.in(chunk)).execute();
            }
            return fresh;
        });
    }

    private static long insert(DSLContext ctx, TargetKey target, Sighting sighting, String commitSeen, Instant seenAt) {
        var f = sighting.finding();
        return ctx.insertInto(DRIFT_ITEM)
                .set(DRIFT_ITEM.TARGET_KEY, target.value())
                .set(DRIFT_ITEM.KIND, f.kind().name())
                .set(DRIFT_ITEM.FINGERPRINT, f.fingerprint())
                .set(DRIFT_ITEM.SUBJECT_ID, f.subject().map(SubjectId::value).orElse(null))
                .set(DRIFT_ITEM.LINE, cut(f.line(), LINE_MAX))
                .set(opened(sighting, commitSeen, seenAt, "Found on main."))
                .returningResult(DRIFT_ITEM.ID).fetchOne(DRIFT_ITEM.ID);
    }

    private static void reopen(DSLContext ctx, DriftItemRecord row, Sighting sighting, String commitSeen, Instant seenAt) {
        var rows = ctx.update(DRIFT_ITEM)
                .set(DRIFT_ITEM.VERSION, DRIFT_ITEM.VERSION.plus(1))
                .set(opened(sighting, commitSeen, seenAt, "Seen on main again."))
                .setNull(DRIFT_ITEM.REMOVAL_OPERATION_ID)
                .where(DRIFT_ITEM.ID.eq(row.getId())).and(DRIFT_ITEM.STATUS.eq(DriftStatus.RESOLVED.name()))
                .and(DRIFT_ITEM.VERSION.eq(row.getVersion()))
                .execute();
        Sql.requireOneRow(rows, "drift item " + row.getId() + " opened again");
    }

    /** What an item found now holds besides its identity: OPEN, first and last seen now, the note and evidence given. */
    private static Map<Field<?>, Object> opened(Sighting sighting, String commitSeen, Instant seenAt, String statusNote) {
        var f = sighting.finding();
        var e = sighting.evidence();
        var values = new LinkedHashMap<Field<?>, Object>();
        values.put(DRIFT_ITEM.NOTE, cut(f.note(), NOTE_MAX));
        values.put(DRIFT_ITEM.OPERATION_ID, f.operation().map(OperationId::value).orElse(null));
        values.put(DRIFT_ITEM.EVIDENCE_COMMIT, e.commitSha().map(s -> cut(s, 64)).orElse(null));
        values.put(DRIFT_ITEM.EVIDENCE_AUTHOR, e.author().map(a -> cut(a, AUTHOR_MAX)).orElse(null));
        values.put(DRIFT_ITEM.EVIDENCE_AT, utcValue(e.committedAt().orElse(null)));
        values.put(DRIFT_ITEM.COMMIT_SEEN, cut(commitSeen, 64));
        values.put(DRIFT_ITEM.FIRST_SEEN, utcValue(seenAt));
        values.put(DRIFT_ITEM.LAST_SEEN, utcValue(seenAt));
        values.put(DRIFT_ITEM.STATUS, DriftStatus.OPEN.name());
        values.put(DRIFT_ITEM.STATUS_ACTOR, "system");
        values.put(DRIFT_ITEM.STATUS_NOTE, statusNote);
        values.put(DRIFT_ITEM.STATUS_AT, utcValue(seenAt));
        return values;
    }

    @Override
    public Optional<DriftItem> move(DriftItem read, DriftStatus to, String actor, String note, Instant at,
                                    Optional<OperationId> removal) {
        if (!read.status().allows(to)) {
            return Optional.empty();
        }
        var update = dsl.update(DRIFT_ITEM)
                .set(DRIFT_ITEM.VERSION, DRIFT_ITEM.VERSION.plus(1))
                .set(DRIFT_ITEM.STATUS, to.name())
                .set(DRIFT_ITEM.STATUS_ACTOR, cut(actor, Sql.ACTOR_MAX))
                .set(DRIFT_ITEM.STATUS_NOTE, cut(note, NOTE_MAX))
                .set(DRIFT_ITEM.STATUS_AT, utcValue(at))
                // the column names the operation opened for the line: the removal, or while ADOPTED the adopting request
                .set(DRIFT_ITEM.REMOVAL_OPERATION_ID, removal.map(OperationId::value).orElse(
                        read.status() == DriftStatus.ADOPTED ? null : read.removal().map(OperationId::value).orElse(null)));
        var rows = update.where(DRIFT_ITEM.ID.eq(read.id())).and(DRIFT_ITEM.STATUS.eq(read.status().name()))
                .and(DRIFT_ITEM.VERSION.eq(read.version())).execute();
        if (rows > 1) {
            throw new IllegalStateException("drift item " + read.id() + ": a guarded write touched " + rows + " rows");
        }
        return rows == 0 ? Optional.empty() : find(read.id());
    }

    @Override
    public Optional<DriftItem> find(long id) {
        return dsl.selectFrom(DRIFT_ITEM).where(DRIFT_ITEM.ID.eq(id)).fetchOptional(JooqDrifts::toItem);
    }

    @Override
    public List<DriftItem> list(Query query) {
        if (query.statuses().isEmpty() || query.limit() < 1) {
            return List.of();
        }
        return dsl.selectFrom(DRIFT_ITEM)
                .where(DRIFT_ITEM.STATUS.in(names(query.statuses())))
                .and(query.target().map(t -> DRIFT_ITEM.TARGET_KEY.eq(t.value())).orElse(DSL.noCondition()))
                .and(query.subject().map(s -> DRIFT_ITEM.SUBJECT_ID.eq(s.value())).orElse(DSL.noCondition()))
                .and(query.kind().map(k -> DRIFT_ITEM.KIND.eq(k.name())).orElse(DSL.noCondition()))
                .orderBy(DRIFT_ITEM.LAST_SEEN.desc(), DRIFT_ITEM.ID.desc())
                .limit(query.limit())
                .fetch(JooqDrifts::toItem);
    }

    @Override
    public Map<DriftKind, Long> countUnhandled() {
        var counts = new EnumMap<DriftKind, Long>(DriftKind.class);
        dsl.select(DRIFT_ITEM.KIND, DSL.count()).from(DRIFT_ITEM)
                .where(DRIFT_ITEM.STATUS.in(names(DriftStatus.UNHANDLED)))
                .groupBy(DRIFT_ITEM.KIND)
                .forEach(r -> counts.put(DriftKind.valueOf(r.value1()), r.value2().longValue()));
        return counts;
    }

    private static List<String> names(Collection<DriftStatus> statuses) {
        return statuses.stream().map(Enum::name).sorted().toList();
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    private static DriftItem toItem(DriftItemRecord r) {
        var evidence = new Evidence(Optional.ofNullable(r.getEvidenceCommit()), Optional.ofNullable(r.getEvidenceAuthor()),
                Optional.ofNullable(instant(r.getEvidenceAt())));
        return new DriftItem(r.getId(), r.getVersion(), TargetKey.of(r.getTargetKey()), DriftKind.valueOf(r.getKind()),
                Optional.ofNullable(r.getSubjectId()).map(SubjectId::of), r.getLine(),
                Optional.ofNullable(r.getOperationId()).map(OperationId::of), r.getNote(), evidence,
                Optional.ofNullable(r.getCommitSeen()), instant(r.getFirstSeen()), instant(r.getLastSeen()),
                DriftStatus.valueOf(r.getStatus()), r.getStatusActor(), r.getStatusNote(), instant(r.getStatusAt()),
                Optional.ofNullable(r.getRemovalOperationId()).map(OperationId::of));
    }
}
