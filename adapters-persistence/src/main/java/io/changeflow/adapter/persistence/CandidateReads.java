package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.selectOperations;
import static io.changeflow.adapter.persistence.OperationRows.toBinding;
import static io.changeflow.adapter.persistence.OperationRows.toOperation;
import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.application.port.out.Operations.ExpiringGrants;
import io.changeflow.application.port.out.Operations.IdPage;
import io.changeflow.application.port.out.Operations.MergedPage;
import io.changeflow.application.port.out.Operations.Page;
import io.changeflow.application.port.out.Operations.PageCursor;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The reads the recurring jobs page through, for {@link JooqOperations}: the expiry job's candidates and window,
 * stuck and idle operations, the fair scan of reconciliation and the sweeps, and the merged operations past the
 * deploy deadline. Index range reads by the database clock, keyset pages where a job continues.
 */
final class CandidateReads {

    private CandidateReads() {
    }

    /** One range read of {@code idx_binding_status_expires (status, expires_at)}, by the database clock. */
    static List<Binding> dueForExpiry(DSLContext dsl, Duration grace, int limit) {
        return dsl.selectFrom(BINDING)
                .where(inEffectForExpiry())
                .and(BINDING.EXPIRES_AT.le(Sql.ahead(grace)))
                .orderBy(BINDING.EXPIRES_AT, BINDING.ID)
                .limit(Math.max(0, limit))
                .fetch(OperationRows::toBinding);
    }

    /** The renewals owning their row in {@code statuses} whose renewed grant's expiry passed (plus the grace). */
    static List<Operation> renewalsPastRenewedExpiry(DSLContext dsl, Set<BindingStatus> statuses, Duration grace,
            int limit) {
        if (statuses.isEmpty()) {
            return List.of();
        }
        var renewed = OPERATION.as("renewed");
        return selectOperations(dsl)
                .join(renewed).on(renewed.ID.eq(OPERATION.REMOVES_OPERATION_ID))
                .where(OPERATION.CHANGE_KIND.eq(ChangeKind.GRANT.name()))
                .and(BINDING.STATUS.in(statuses.stream().map(Enum::name).toList()))
                .and(renewed.EXPIRES_AT.le(Sql.ahead(grace)))
                .orderBy(renewed.EXPIRES_AT, OPERATION.ID)
                .limit(Math.max(0, limit))
                .fetch(OperationRows::toOperation);
    }

    static ExpiringGrants expiringWithin(DSLContext dsl, Duration within, int limit) {
        // one statement: the window count is computed over every row of the range before the limit applies
        var total = DSL.count().over().as("total");
        var rows = dsl.select(BINDING.asterisk(), total)
                .from(BINDING)
                .where(inEffectForExpiry())
                .and(BINDING.EXPIRES_AT.le(Sql.ahead(within)))
                .orderBy(BINDING.EXPIRES_AT, BINDING.ID)
                .limit(Math.max(1, limit))
                .fetch();
        var count = rows.isEmpty() ? 0L : rows.getFirst().get(total).longValue();
        return new ExpiringGrants(count, rows.map(r -> toBinding(r.into(BINDING))));
    }

    /**
     * The rows whose expiry the expiry job acts on: VALIDATED, and REMOVAL_REJECTED whose removal that was not
     * approved was a revocation (the grant still expires at its until). A rejected expiry is not asked again.
     */
    private static Condition inEffectForExpiry() {
        return BINDING.STATUS.eq(BindingStatus.VALIDATED.name())
                .or(BINDING.STATUS.eq(BindingStatus.REMOVAL_REJECTED.name()).andExists(DSL.selectOne().from(OPERATION)
                        .where(OPERATION.ID.eq(BINDING.OPERATION_ID))
                        .and(OPERATION.CHANGE_KIND.eq(ChangeKind.REVOCATION.name()))));
    }

    static List<Operation> stuck(DSLContext dsl, Set<BindingStatus> statuses, Duration stuckFor, int limit) {
        return stuck(dsl, statuses, DSL.noCondition(), stuckFor, limit);
    }

    static List<Operation> stuck(DSLContext dsl, Set<BindingStatus> statuses, TargetKey target, Duration stuckFor,
            int limit) {
        return stuck(dsl, statuses, BINDING.TARGET_KEY.eq(target.value()), stuckFor, limit);
    }

    private static List<Operation> stuck(DSLContext dsl, Set<BindingStatus> statuses, Condition onTarget,
            Duration stuckFor, int limit) {
        var wanted = statuses.isEmpty()
                ? Arrays.stream(BindingStatus.values()).filter(s -> !s.isTerminal()).collect(Collectors.toCollection(
                        () -> EnumSet.noneOf(BindingStatus.class)))
                : EnumSet.copyOf(statuses);
        return selectOperations(dsl)
                .where(BINDING.STATUS.in(wanted.stream().map(Enum::name).toList()))
                .and(onTarget)
                .and(BINDING.UPDATED_AT.lt(Sql.ago(stuckFor)))
                .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                .limit(limit)
                .fetch(OperationRows::toOperation);
    }

    /**
     * One range read of {@code idx_binding_status_updated (status, updated_at)} per status (InnoDB appends the
     * primary key {@code id}, so the keyset {@code (updated_at, id)} is the index order: no sort), the statuses in
     * enum order, from the first. The position is {@code status|updated_at|binding id} of the last row of a full
     * page.
     */
    static Page scan(DSLContext dsl, Set<BindingStatus> statuses, Duration olderThan, int limit) {
        return scan(dsl, scanned(statuses, limit), 0, DSL.noCondition(), olderThan, limit);
    }

    /**
     * {@link #scan(DSLContext, Set, Duration, int)} after {@code after}: within its status after its row, or from
     * the next status scanned when its own is not; from the start when no later status is scanned or the position
     * is garbled.
     */
    static Page scan(DSLContext dsl, Set<BindingStatus> statuses, Duration olderThan, ScanCursors.Position after,
            int limit) {
        var ordered = scanned(statuses, limit);
        var start = ScanKey.parse(after);
        if (start.isPresent()) {
            var key = start.get();
            for (var i = 0; i < ordered.size(); i++) {
                if (ordered.get(i) == key.status()) {
                    return scan(dsl, ordered, i, key.following(), olderThan, limit);
                }
                if (ordered.get(i).ordinal() > key.status().ordinal()) {
                    return scan(dsl, ordered, i, DSL.noCondition(), olderThan, limit);
                }
            }
        }
        return scan(dsl, ordered, 0, DSL.noCondition(), olderThan, limit);
    }

    private static List<BindingStatus> scanned(Set<BindingStatus> statuses, int limit) {
        if (statuses.isEmpty() || limit < 1) {
            throw new IllegalArgumentException("a scan needs at least one status and a positive limit");
        }
        return List.copyOf(EnumSet.copyOf(statuses));
    }

    /** The page from {@code ordered.get(first)} on, the rows of that first status narrowed by {@code firstFrom}. */
    private static Page scan(DSLContext dsl, List<BindingStatus> ordered, int first, Condition firstFrom,
            Duration olderThan, int limit) {
        var found = new ArrayList<Operation>(Math.min(limit, 1000));
        for (var i = first; i < ordered.size() && found.size() < limit; i++) {
            var status = ordered.get(i);
            var where = BINDING.STATUS.eq(status.name()).and(BINDING.UPDATED_AT.lt(Sql.ago(olderThan)));
            if (i == first) {
                where = where.and(firstFrom);
            }
            var rows = dsl.select(OPERATION.fields())
                    .select(BINDING.STATUS, BINDING.ID, BINDING.UPDATED_AT, MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID,
                            MERGE_BATCH.MR_BRANCH, MERGE_BATCH.MR_WEB_URL)
                    .from(BINDING)
                    .join(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                    .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID))
                    .where(where)
                    .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                    .limit(limit - found.size())
                    .fetch();
            rows.forEach(r -> found.add(toOperation(r)));
            if (found.size() == limit) {
                var last = rows.get(rows.size() - 1);
                return new Page(found, Optional.of(new ScanKey(status, instant(last.get(BINDING.UPDATED_AT)),
                        last.get(BINDING.ID)).position()));
            }
        }
        return new Page(found, Optional.empty());
    }

    /**
     * A keyset range of the status index: {@code status = 'MERGED' AND updated_at < ago(age)}, after the
     * cursor's {@code (updated_at, id)} in the index's own order (InnoDB appends the primary key to a
     * secondary index), so no sort and no offset. One row more than asked tells whether a next page exists.
     */
    static MergedPage mergedLongerThan(DSLContext dsl, Duration age, PageCursor after, int limit) {
        var size = Math.max(1, limit);
        var at = Sql.utcValue(after.writtenAt());
        var writtenAt = BINDING.UPDATED_AT.as("binding_written_at");
        var rowKey = BINDING.ID.as("binding_row_key");
        var rows = dsl.select(OPERATION.fields())
                .select(BINDING.STATUS, MERGE_BATCH.MR_PROJECT, MERGE_BATCH.MR_IID, MERGE_BATCH.MR_BRANCH,
                        MERGE_BATCH.MR_WEB_URL, writtenAt, rowKey)
                .from(BINDING)
                .join(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID))
                .where(BINDING.STATUS.eq(BindingStatus.MERGED.name()))
                .and(BINDING.UPDATED_AT.lt(Sql.ago(age)))
                .and(BINDING.UPDATED_AT.gt(at).or(BINDING.UPDATED_AT.eq(at).and(BINDING.ID.gt(after.rowKey()))))
                .orderBy(BINDING.UPDATED_AT, BINDING.ID)
                .limit(size + 1)
                .fetch();
        var page = rows.stream().limit(size).toList();
        var next = rows.size() > size
                ? Optional.of(new PageCursor(instant(page.getLast().get(writtenAt)), page.getLast().get(rowKey)))
                : Optional.<PageCursor>empty();
        return new MergedPage(page.stream().map(OperationRows::toOperation).toList(), next);
    }

    /** The keyset of {@link #scan}'s order, as its position token. */
    private record ScanKey(BindingStatus status, Instant updatedAt, long bindingId) {

        /** The rows of this key's status after it, in the keyset order. */
        Condition following() {
            var at = Sql.utcValue(updatedAt);
            return BINDING.UPDATED_AT.ge(at).and(BINDING.UPDATED_AT.gt(at).or(BINDING.ID.gt(bindingId)));
        }

        ScanCursors.Position position() {
            return new ScanCursors.Position(status.name() + "|" + updatedAt + "|" + bindingId);
        }

        /** Empty for a token this adapter did not make (the scan then starts from the beginning). */
        static Optional<ScanKey> parse(ScanCursors.Position position) {
            var parts = position.token().split("\\|");
            try {
                return parts.length == 3
                        ? Optional.of(new ScanKey(BindingStatus.valueOf(parts[0]), Instant.parse(parts[1]), Long.parseLong(parts[2])))
                        : Optional.empty();
            } catch (RuntimeException garbled) {
                return Optional.empty();
            }
        }
    }

    static List<Operation> idleIn(DSLContext dsl, Set<BindingStatus> statuses, Duration idleFor, IdPage page) {
        if (statuses.isEmpty() || page.limit() < 1) {
            return List.of();
        }
        var condition = BINDING.STATUS.in(statuses.stream().map(Enum::name).toList())
                .and(BINDING.UPDATED_AT.le(Sql.ago(idleFor)));
        if (page.after().isPresent()) {
            condition = condition.and(BINDING.OPERATION_ID.gt(page.after().get().value()));
        }
        return selectOperations(dsl)
                .where(condition)
                .orderBy(BINDING.OPERATION_ID)
                .limit(page.limit())
                .fetch(OperationRows::toOperation);
    }

    /**
     * The replaced requests at one of {@code steps} with a merge request of their own (or at CLOSE_FAILED without one,
     * finding S8): the operation rows of each step
     * after the page's ID, by {@code idx_operation_step_id} (V15), without a binding row owned by them
     * ({@code uk_binding_operation}).
     */
    static List<Operation> detachedAt(DSLContext dsl, Set<StepStatus> steps, IdPage page) {
        if (steps.isEmpty() || page.limit() < 1) {
            return List.of();
        }
        var condition = OPERATION.STEP.in(steps.stream().map(StepStatus::code).toList())
                .and(BINDING.ID.isNull())
                .and(OPERATION.MR_IID.isNotNull().or(OPERATION.STEP.eq(StepStatus.CLOSE_FAILED.code())));
        if (page.after().isPresent()) {
            condition = condition.and(OPERATION.ID.gt(page.after().get().value()));
        }
        return selectOperations(dsl)
                .where(condition)
                .orderBy(OPERATION.ID)
                .limit(page.limit())
                .fetch(OperationRows::toOperation);
    }
}
