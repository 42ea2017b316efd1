package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_MEMBERSHIP_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;

import io.changeflow.domain.state.BatchStatus;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * The rows the claim and the settlement share: the waiting set ({@code merge_batch_request}, waiting while
 * {@code batch_id IS NULL}), the membership history's actions and the stored batch status codes.
 */
final class BatchRows {

    static final String CLAIMED = "CLAIMED";
    static final String RELEASED = "RELEASED";
    static final String DROPPED = "DROPPED";
    static final String REQUEUED = "REQUEUED";

    private BatchRows() {
    }

    /** A row of the waiting set: its primary key and the operation it admits. */
    record Waiting(long requestId, String operationId) {}

    static byte code(BatchStatus status) {
        return (byte) status.code();
    }

    /**
     * Waiting, admitted before this millisecond of the database clock, and not backing off after a transient
     * failure (the eligibility is a filter on the rows of the waiting range, which is still read in index order).
     */
    static Condition waiting(String partition) {
        return MERGE_BATCH_REQUEST.PARTITION_KEY.eq(partition)
                .and(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                .and(MERGE_BATCH_REQUEST.CREATED_AT.lt(now()))
                .and(MERGE_BATCH_REQUEST.ELIGIBLE_AT.isNull().or(MERGE_BATCH_REQUEST.ELIGIBLE_AT.le(now())));
    }

    /**
     * The batch's claimed waiting-set rows, in claim order. The index on {@code batch_id} is forced: the
     * table holds mostly waiting rows (NULL) and one claimed batch per partition, so its statistics
     * see few distinct values and would rather scan the primary key.
     */
    static List<Waiting> claimedRows(DSLContext ctx, long batchId) {
        return ctx.select(MERGE_BATCH_REQUEST.ID, MERGE_BATCH_REQUEST.OPERATION_ID)
                .from(MERGE_BATCH_REQUEST.forceIndex("idx_merge_batch_request_batch"))
                .where(MERGE_BATCH_REQUEST.BATCH_ID.eq(batchId))
                .orderBy(MERGE_BATCH_REQUEST.ID)
                .fetch(r -> new Waiting(r.value1(), r.value2()));
    }

    /** Deletes waiting-set rows by primary key only, still waiting (no batch holds them): see below. */
    static int deleteRequests(DSLContext ctx, List<Waiting> rows) {
        return deleteRequests(ctx, rows, " AND r.batch_id IS NULL", List.of());
    }

    /**
     * Deletes waiting-set rows by primary key only, still held by {@code batchId}. The multi-table form is the one DELETE both MySQL and MariaDB accept an index hint in:
     * on a small table the optimizer would rather scan it whole for a long IN list, and a scanning
     * DELETE locks every row and gap it passes, which would block admissions (I3) until commit.
     */
    static int deleteRequests(DSLContext ctx, List<Waiting> rows, long batchId) {
        return deleteRequests(ctx, rows, " AND r.batch_id = ?", List.of(batchId));
    }

    private static int deleteRequests(DSLContext ctx, List<Waiting> rows, String heldBy, List<Object> heldByBindings) {
        var sql = new StringBuilder("DELETE r FROM merge_batch_request AS r FORCE INDEX (PRIMARY) WHERE r.id IN (");
        var bindings = new ArrayList<Object>(rows.size() + 1);
        for (var i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            bindings.add(rows.get(i).requestId());
        }
        sql.append(')').append(heldBy);
        bindings.addAll(heldByBindings);
        return ctx.execute(sql.toString(), bindings.toArray());
    }

    /** One multi-row insert into the membership history: {@code members} with {@code action} in batch {@code batchId}. */
    static void insertMembership(DSLContext ctx, long batchId, List<Waiting> members, String action) {
        var insert = ctx.insertInto(MERGE_BATCH_MEMBERSHIP_HISTORY, MERGE_BATCH_MEMBERSHIP_HISTORY.BATCH_ID,
                MERGE_BATCH_MEMBERSHIP_HISTORY.OPERATION_ID, MERGE_BATCH_MEMBERSHIP_HISTORY.ACTION);
        for (var m : members) {
            insert = insert.values(batchId, m.operationId(), action);
        }
        insert.execute();
    }
}
