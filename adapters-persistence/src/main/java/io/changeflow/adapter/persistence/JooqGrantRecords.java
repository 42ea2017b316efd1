package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.selectOperations;
import static io.changeflow.adapter.persistence.OperationRows.toHistory;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Select;
import org.jooq.impl.DSL;

/**
 * The audit export's reads (issue 32, item 6), one statement each: the grants of a range (requested in it, or in effect
 * at some instant of it) by the index {@code idx_operation_created (created_at, id)} (V20) with a keyset cursor, each
 * older grant checked by its history and takers' indexes, and the histories and takers of a page by
 * their own indexes.
 */
final class JooqGrantRecords implements GrantRecords {

    private final DSLContext dsl;

    JooqGrantRecords(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public List<Operation> grantsOverlapping(Page page) {
        var from = Sql.utcValue(page.from());
        var to = Sql.utcValue(page.to());
        // the keyset written out (MariaDB uses the index for it; a row comparison it may not. Bound as DATETIME(3) text: Sql.utcValue)
        var after = page.after().map(cursor -> OPERATION.CREATED_AT.gt(Sql.utcValue(cursor.requestedAt()))
                        .or(OPERATION.CREATED_AT.eq(Sql.utcValue(cursor.requestedAt())).and(OPERATION.ID.gt(cursor.id().value()))))
                .orElse(DSL.noCondition());
        return selectOperations(dsl)
                .where(OPERATION.CREATED_AT.lt(to)).and(after)
                .and(OPERATION.CHANGE_KIND.eq(ChangeKind.GRANT.name()))
                .and(OPERATION.CREATED_AT.ge(from).or(inEffectBefore(to).andNotExists(endedBefore(from))))
                .orderBy(OPERATION.CREATED_AT, OPERATION.ID)
                .limit(Math.max(0, page.limit()))
                .fetch(OperationRows::toOperation);
    }

    /** The grant of the outer row took effect (its first VALIDATED) before {@code to}: by {@code idx_operation_history_operation}. */
    private Condition inEffectBefore(Field<LocalDateTime> to) {
        return DSL.exists(DSL.selectOne().from(OPERATION_HISTORY)
                .where(OPERATION_HISTORY.OPERATION_ID.eq(OPERATION.ID))
                .and(OPERATION_HISTORY.TO_BINDING.eq(BindingStatus.VALIDATED.name()))
                .and(OPERATION_HISTORY.CREATED_AT.lt(to)));
    }

    /**
     * A request that took the outer row's grant over ended it before {@code from}: a removal reached EXPIRED or REVOKED,
     * or a renewal VALIDATED (its takers by {@code idx_operation_removes}, their histories by
     * {@code idx_operation_history_operation}).
     */
    private Select<?> endedBefore(Field<LocalDateTime> from) {
        var taker = OPERATION.as("taker");
        var ended = OPERATION_HISTORY.as("ended");
        var removed = taker.CHANGE_KIND.ne(ChangeKind.GRANT.name())
                .and(ended.TO_BINDING.in(BindingStatus.EXPIRED.name(), BindingStatus.REVOKED.name()));
        var renewed = taker.CHANGE_KIND.eq(ChangeKind.GRANT.name()).and(ended.TO_BINDING.eq(BindingStatus.VALIDATED.name()));
        return DSL.selectOne().from(taker).join(ended).on(ended.OPERATION_ID.eq(taker.ID))
                .where(taker.REMOVES_OPERATION_ID.eq(OPERATION.ID))
                .and(ended.CREATED_AT.lt(from))
                .and(removed.or(renewed));
    }

    @Override
    public Map<OperationId, List<HistoryEntry>> histories(Collection<OperationId> ids) {
        var histories = new LinkedHashMap<OperationId, List<HistoryEntry>>();
        if (ids.isEmpty()) {
            return histories;
        }
        var wanted = ids.stream().map(OperationId::value).distinct().toList();
        for (var row : dsl.selectFrom(OPERATION_HISTORY).where(OPERATION_HISTORY.OPERATION_ID.in(wanted))
                .orderBy(OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.ID).fetch()) {
            var entry = toHistory(row);
            histories.computeIfAbsent(entry.operationId(), id -> new ArrayList<>()).add(entry);
        }
        return histories;
    }

    @Override
    public List<Operation> takingOver(Collection<OperationId> grants) {
        if (grants.isEmpty()) {
            return List.of();
        }
        var wanted = grants.stream().map(OperationId::value).distinct().toList();
        return selectOperations(dsl).where(OPERATION.REMOVES_OPERATION_ID.in(wanted))
                .orderBy(OPERATION.CREATED_AT, OPERATION.ID)
                .fetch(OperationRows::toOperation);
    }
}
