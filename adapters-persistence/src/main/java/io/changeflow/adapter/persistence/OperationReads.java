package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.OperationRows.findIn;
import static io.changeflow.adapter.persistence.OperationRows.selectOperations;
import static io.changeflow.adapter.persistence.OperationRows.status;
import static io.changeflow.adapter.persistence.OperationRows.toHistory;
import static io.changeflow.adapter.persistence.OperationRows.toOperation;
import static io.changeflow.adapter.persistence.Sql.chunks;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;

import io.changeflow.application.port.out.Operations.MergedOperation;
import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.RequestFilter;
import io.changeflow.application.port.out.Operations.RowVersion;
import io.changeflow.application.port.out.Operations.WithHistory;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.JoinType;
import org.jooq.impl.DSL;

/**
 * The reads of {@link JooqOperations} that answer a person or a caller by key: one operation (with its
 * history), a subject's rows, a requester's list with its filters, the operations of a merge request, merge
 * orders and the counts by status. Each is one statement (per chunk of {@link Sql#CHUNK} keys).
 */
final class OperationReads {

    private OperationReads() {
    }

    static Optional<Operation> find(DSLContext dsl, OperationId id) {
        return findIn(dsl, id.value());
    }

    static Optional<Binding> binding(DSLContext dsl, SubjectId subject, TargetKey target) {
        return dsl.selectFrom(BINDING)
                .where(BINDING.SUBJECT_ID.eq(subject.value())).and(BINDING.TARGET_KEY.eq(target.value()))
                .fetchOptional().map(OperationRows::toBinding);
    }

    static List<Binding> bindingsOf(DSLContext dsl, SubjectId subject) {
        return dsl.selectFrom(BINDING).where(BINDING.SUBJECT_ID.eq(subject.value())).orderBy(BINDING.TARGET_KEY)
                .fetch(OperationRows::toBinding);
    }

    static List<Binding> bindingsOn(DSLContext dsl, TargetKey target) {
        return dsl.selectFrom(BINDING).where(BINDING.TARGET_KEY.eq(target.value())).orderBy(BINDING.SUBJECT_ID)
                .fetch(OperationRows::toBinding);
    }

    /** Made by {@code person}, or a grant asked for them by someone else: each side has its index (V12 for the subject). */
    static List<Operation> requestsOf(DSLContext dsl, String person, RequestFilter filter, int offset, int limit) {
        var forThem = OPERATION.SUBJECT_ID.eq(person).and(OPERATION.CHANGE_KIND.eq(ChangeKind.GRANT.name()));
        return selectOperations(dsl).where(OPERATION.REQUESTER.eq(person).or(forThem))
                .and(filter.status().map(s -> BINDING.STATUS.eq(s.name())).orElse(DSL.noCondition()))
                .and(filter.target().map(t -> OPERATION.TARGET_KEY.eq(t.value())).orElse(DSL.noCondition()))
                .orderBy(OPERATION.CREATED_AT.desc(), OPERATION.ID.desc())
                .limit(Math.max(0, offset), Math.max(0, limit))
                .fetch(OperationRows::toOperation);
    }

    /**
     * The row versions of {@link #requestsOf}'s rows: its conditions, order and page over the same indexes and joins,
     * reading only the columns that version a row (issue 33, the conditional read of my records).
     */
    static List<RowVersion> requestVersionsOf(DSLContext dsl, String person, RequestFilter filter, int offset, int limit) {
        var forThem = OPERATION.SUBJECT_ID.eq(person).and(OPERATION.CHANGE_KIND.eq(ChangeKind.GRANT.name()));
        return dsl.select(OPERATION.ID, OPERATION.VERSION, OPERATION.UPDATED_AT, BINDING.STATUS, OPERATION.MR_IID,
                        MERGE_BATCH.MR_IID)
                .from(OPERATION)
                .leftJoin(BINDING).on(BINDING.OPERATION_ID.eq(OPERATION.ID))
                .leftJoin(MERGE_BATCH).on(MERGE_BATCH.ID.eq(OPERATION.BATCH_ID))
                .where(OPERATION.REQUESTER.eq(person).or(forThem))
                .and(filter.status().map(s -> BINDING.STATUS.eq(s.name())).orElse(DSL.noCondition()))
                .and(filter.target().map(t -> OPERATION.TARGET_KEY.eq(t.value())).orElse(DSL.noCondition()))
                .orderBy(OPERATION.CREATED_AT.desc(), OPERATION.ID.desc())
                .limit(Math.max(0, offset), Math.max(0, limit))
                .fetch(r -> new RowVersion(OperationId.of(r.get(OPERATION.ID)), r.get(OPERATION.VERSION),
                        Sql.instant(r.get(OPERATION.UPDATED_AT)),
                        Optional.ofNullable(r.get(BINDING.STATUS)).map(OperationRows::status),
                        Optional.ofNullable(r.get(OPERATION.MR_IID)).or(() -> Optional.ofNullable(r.get(MERGE_BATCH.MR_IID)))));
    }

    static List<HistoryEntry> history(DSLContext dsl, OperationId id) {
        return dsl.selectFrom(OPERATION_HISTORY).where(OPERATION_HISTORY.OPERATION_ID.eq(id.value()))
                .orderBy(OPERATION_HISTORY.ID)
                .fetch(OperationRows::toHistory);
    }

    /**
     * One statement: the operation (with its binding status and batch merge request, as {@link #find}) left-joined to
     * its history rows by {@code idx_operation_history_operation}, oldest first; an operation without history comes
     * back as one row whose history columns are null.
     */
    static Optional<WithHistory> findWithHistory(DSLContext dsl, OperationId id) {
        var rows = selectOperations(dsl).getQuery();
        rows.addSelect(OPERATION_HISTORY.fields());
        rows.addJoin(OPERATION_HISTORY, JoinType.LEFT_OUTER_JOIN, OPERATION_HISTORY.OPERATION_ID.eq(OPERATION.ID));
        rows.addConditions(OPERATION.ID.eq(id.value()));
        rows.addOrderBy(OPERATION_HISTORY.ID);
        var found = rows.fetch();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        var history = found.stream().filter(r -> r.get(OPERATION_HISTORY.ID) != null)
                .map(r -> toHistory(r.into(OPERATION_HISTORY))).toList();
        return Optional.of(new WithHistory(toOperation(found.getFirst()), history));
    }

    /**
     * What an opening transaction answers: the operation it opened with its history, read in one statement
     * ({@link #findWithHistory}) inside the transaction, and the row it took over as read before its writes.
     */
    static OpenResult.Opened opened(DSLContext ctx, String id, Optional<Binding> replaced) {
        var found = findWithHistory(ctx, OperationId.of(id)).orElseThrow();
        return new OpenResult.Opened(found.operation(), found.history(), replaced);
    }

    /** One read of {@code merge_order} by its unique key per chunk of 1000 merge requests. */
    static Map<MergeRequestRef, Long> mergeOrders(DSLContext dsl, Collection<MergeRequestRef> mergeRequests) {
        var wanted = new HashMap<List<Object>, List<MergeRequestRef>>();
        mergeRequests.forEach(mr -> wanted.computeIfAbsent(List.of(mr.project(), mr.iid()), k -> new ArrayList<>()).add(mr));
        var found = new HashMap<MergeRequestRef, Long>();
        for (var chunk : chunks(List.copyOf(wanted.keySet()))) {
            var keys = chunk.stream().map(k -> DSL.row((String) k.get(0), (Long) k.get(1))).toList();
            dsl.select(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID, MERGE_ORDER.SEQ).from(MERGE_ORDER)
                    .where(DSL.row(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID).in(keys))
                    .forEach(r -> wanted.getOrDefault(List.<Object>of(r.value1(), r.value2()), List.of())
                            .forEach(mr -> found.put(mr, r.value3())));
        }
        return found;
    }

    /**
     * Two statements: the operations of the project awaiting their deploy report (the binding status index; their own
     * merge request or their batch's), then the merge orders and commits of their merge requests by the unique key;
     * sorted here, oldest merge first. MERGED is a waiting state the deploy deadline bounds, and DEPLOY_UNCONFIRMED and
     * DEPLOY_FAILED wait for a person, so the first read stays small.
     */
    static List<MergedOperation> mergedAwaitingDeploy(DSLContext dsl, String project, int limit) {
        if (limit < 1) {
            return List.of();
        }
        var merged = selectOperations(dsl)
                .where(BINDING.STATUS.in(BindingStatus.AWAITING_DEPLOY.stream().map(Enum::name).sorted().toList()))
                .and(OPERATION.MR_PROJECT.eq(project).or(OPERATION.MR_IID.isNull().and(MERGE_BATCH.MR_PROJECT.eq(project))))
                .fetch(OperationRows::toOperation);
        var keys = merged.stream().flatMap(op -> op.mergeRequest().stream())
                .map(mr -> List.<Object>of(mr.project(), mr.iid())).distinct().toList();
        var found = new HashMap<List<Object>, MergeOrderRow>();
        for (var chunk : chunks(keys)) {
            var rows = chunk.stream().map(k -> DSL.row((String) k.get(0), (Long) k.get(1))).toList();
            dsl.select(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID, MERGE_ORDER.SEQ, MERGE_ORDER.MERGE_COMMIT_SHA).from(MERGE_ORDER)
                    .where(DSL.row(MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID).in(rows))
                    .forEach(r -> found.put(List.of(r.value1(), r.value2()),
                            new MergeOrderRow(r.value3(), Optional.ofNullable(r.value4()))));
        }
        return merged.stream()
                .flatMap(op -> op.mergeRequest().map(mr -> found.get(List.<Object>of(mr.project(), mr.iid()))).stream()
                        .map(row -> new MergedOperation(op, row.seq(), row.commit())))
                .sorted(Comparator.comparingLong(MergedOperation::mergeOrder))
                .limit(limit)
                .toList();
    }

    private record MergeOrderRow(long seq, Optional<String> commit) {}

    /** One aggregate read of the binding table's status index. */
    static Map<BindingStatus, Long> countByStatus(DSLContext dsl) {
        var counts = new EnumMap<BindingStatus, Long>(BindingStatus.class);
        var count = DSL.count();
        dsl.select(BINDING.STATUS, count).from(BINDING).groupBy(BINDING.STATUS)
                .forEach(r -> counts.put(status(r.get(BINDING.STATUS)), r.get(count).longValue()));
        return counts;
    }

    static List<Operation> findAll(DSLContext dsl, Collection<OperationId> ids) {
        var distinct = ids.stream().map(OperationId::value).distinct().toList();
        var found = new ArrayList<Operation>(distinct.size());
        for (var chunk : chunks(distinct)) {
            found.addAll(selectOperations(dsl).where(OPERATION.ID.in(chunk)).fetch(OperationRows::toOperation));
        }
        return found;
    }

    /** Two index reads in one statement: the operation's own merge request, or its batch's. */
    static List<Operation> findByMergeRequest(DSLContext dsl, String project, long iid) {
        return selectOperations(dsl)
                .where(OPERATION.MR_PROJECT.eq(project)).and(OPERATION.MR_IID.eq(iid))
                .unionAll(selectOperations(dsl)
                        .where(MERGE_BATCH.MR_PROJECT.eq(project)).and(MERGE_BATCH.MR_IID.eq(iid))
                        .and(OPERATION.MR_IID.isNull()))
                .fetch(OperationRows::toOperation);
    }
}
