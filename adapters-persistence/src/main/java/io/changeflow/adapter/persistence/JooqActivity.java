package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.utcValue;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;

import io.changeflow.application.port.out.Activity;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * {@link Activity} in six aggregate statements, whatever the number of rows: counts by status (an index-only
 * read of {@code idx_binding_status_updated}), the non-terminal rows by both layers (a range read per
 * non-terminal status joined to their operations), completions and failures per hour (range reads of
 * {@code idx_binding_history_status_created}), deploy reports (a range read of {@code idx_deploy_callback_created}
 * and one index read for the latest), the waiting batch requests per partition, and the active batches.
 */
final class JooqActivity implements Activity {

    private static final List<String> NON_TERMINAL = java.util.Arrays.stream(BindingStatus.values())
            .filter(s -> !s.isTerminal()).map(Enum::name).toList();
    private static final List<String> COUNTED = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(BindingStatus.VALIDATED), BindingStatus.FAILED.stream()).map(Enum::name).toList();
    private static final String SUCCESS = "success";
    private static final long HOUR_SECONDS = 3600;

    private final DSLContext dsl;

    JooqActivity(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Snapshot read(Instant hoursSince, Instant reportsSince) {
        return new Snapshot(byStatus(), waiting(), hours(hoursSince), deployReports(reportsSince), slots());
    }

    /**
     * Three statements, none of them over all rows: the newest state write of each status (a loose index scan of
     * {@code idx_binding_status_updated}, one step per status), the counts of the non-terminal statuses (a range read of
     * the open requests only; a move into a terminal status leaves one of them, so its count is seen there), and one
     * row of index reads: the newest deploy report and the oldest inside the window (the count changes when it
     * leaves), the newest batch request and the count of those waiting, the active batches (their slot index).
     */
    @Override
    public String version(Instant reportsSince) {
        var text = new StringBuilder();
        var newest = DSL.max(BINDING.UPDATED_AT);
        dsl.select(BINDING.STATUS, newest).from(BINDING).groupBy(BINDING.STATUS).orderBy(BINDING.STATUS)
                .forEach(r -> text.append(r.get(BINDING.STATUS)).append('@').append(r.get(newest)).append(';'));
        var count = DSL.count();
        dsl.select(BINDING.STATUS, count).from(BINDING).where(BINDING.STATUS.in(NON_TERMINAL))
                .groupBy(BINDING.STATUS).orderBy(BINDING.STATUS)
                .forEach(r -> text.append(r.get(BINDING.STATUS)).append('#').append(r.get(count)).append(';'));
        // the active batches as one number: ids are unique, the status fits in 4 bits (RUNNING 1, BLOCKED 4)
        var active = DSL.sum(MERGE_BATCH.ID.mul(16).plus(MERGE_BATCH.STATUS));
        var row = dsl.select(
                DSL.field(dsl.select(DSL.max(DEPLOY_CALLBACK.ID)).from(DEPLOY_CALLBACK)),
                DSL.field(dsl.select(DSL.min(DEPLOY_CALLBACK.CREATED_AT)).from(DEPLOY_CALLBACK)
                        .where(DEPLOY_CALLBACK.CREATED_AT.ge(utcValue(reportsSince)))),
                DSL.field(dsl.select(DSL.max(MERGE_BATCH_REQUEST.ID)).from(MERGE_BATCH_REQUEST)),
                DSL.field(dsl.select(DSL.count()).from(MERGE_BATCH_REQUEST).where(MERGE_BATCH_REQUEST.BATCH_ID.isNull())),
                DSL.field(dsl.select(active).from(MERGE_BATCH).where(MERGE_BATCH.STATUS.in(
                        BatchRows.code(BatchStatus.RUNNING), BatchRows.code(BatchStatus.BLOCKED)))))
                .fetchOne();
        if (row != null) {
            for (int i = 0; i < row.size(); i++) {
                text.append('|').append(row.get(i));
            }
        }
        return text.toString();
    }

    private Map<BindingStatus, Long> byStatus() {
        var counts = new EnumMap<BindingStatus, Long>(BindingStatus.class);
        var count = DSL.count();
        dsl.select(BINDING.STATUS, count).from(BINDING).groupBy(BINDING.STATUS)
                .forEach(r -> counts.put(OperationRows.status(r.get(BINDING.STATUS)), r.get(count).longValue()));
        return counts;
    }

    private List<StateGroup> waiting() {
        var count = DSL.count();
        var oldest = DSL.min(BINDING.UPDATED_AT);
        var expiry = DSL.min(BINDING.EXPIRES_AT);
        return dsl.select(BINDING.STATUS, OPERATION.STEP, count, oldest, expiry)
                .from(BINDING).join(OPERATION).on(OPERATION.ID.eq(BINDING.OPERATION_ID))
                .where(BINDING.STATUS.in(NON_TERMINAL))
                .groupBy(BINDING.STATUS, OPERATION.STEP)
                .orderBy(BINDING.STATUS, OPERATION.STEP)
                .fetch(r -> new StateGroup(OperationRows.status(r.get(BINDING.STATUS)), OperationRows.step(r.get(OPERATION.STEP)),
                        r.get(count), instant(r.get(oldest)), Optional.ofNullable(instant(r.get(expiry)))));
    }

    private List<Hour> hours(Instant since) {
        // Sessions run in UTC (SessionTimeZone), so UNIX_TIMESTAMP reads the stored UTC times as they are.
        var hour = DSL.field("FLOOR(UNIX_TIMESTAMP({0}) / " + HOUR_SECONDS + ")", SQLDataType.BIGINT,
                BINDING_HISTORY.CREATED_AT).as("hour");
        var completed = DSL.sum(DSL.when(BINDING_HISTORY.TO_STATUS.eq(BindingStatus.VALIDATED.name()), 1).otherwise(0))
                .as("completed");
        var failed = DSL.sum(DSL.when(BINDING_HISTORY.TO_STATUS.ne(BindingStatus.VALIDATED.name()), 1).otherwise(0))
                .as("failed");
        var byHour = new TreeMap<Long, Hour>();
        dsl.select(hour, completed, failed).from(BINDING_HISTORY)
                .where(BINDING_HISTORY.TO_STATUS.in(COUNTED))
                .and(BINDING_HISTORY.CREATED_AT.ge(utcValue(since)))
                .groupBy(DSL.field(DSL.name("hour")))
                .forEach(r -> {
                    long h = r.get(hour);
                    byHour.put(h, new Hour(Instant.ofEpochSecond(h * HOUR_SECONDS), r.get(completed).longValue(),
                            r.get(failed).longValue()));
                });
        return new ArrayList<>(byHour.values());
    }

    private DeployReports deployReports(Instant since) {
        var received = DSL.count();
        var unsuccessful = DSL.sum(DSL.when(DEPLOY_CALLBACK.STATUS.ne(SUCCESS), 1).otherwise(0));
        var latest = DSL.field(dsl.select(DSL.max(DEPLOY_CALLBACK.CREATED_AT)).from(DEPLOY_CALLBACK));
        var row = dsl.select(received, unsuccessful, latest).from(DEPLOY_CALLBACK)
                .where(DEPLOY_CALLBACK.CREATED_AT.ge(utcValue(since))).fetchOne();
        if (row == null) {
            return new DeployReports(0, 0, Optional.empty());
        }
        var failures = row.get(unsuccessful);
        return new DeployReports(row.get(received), failures == null ? 0 : failures.longValue(),
                Optional.ofNullable(instant(row.get(latest))));
    }

    private List<Slot> slots() {
        var waiting = new LinkedHashMap<String, Long>();
        var count = DSL.count();
        dsl.select(MERGE_BATCH_REQUEST.PARTITION_KEY, count).from(MERGE_BATCH_REQUEST)
                .where(MERGE_BATCH_REQUEST.BATCH_ID.isNull())
                .groupBy(MERGE_BATCH_REQUEST.PARTITION_KEY)
                .forEach(r -> waiting.put(r.get(MERGE_BATCH_REQUEST.PARTITION_KEY), r.get(count).longValue()));
        var active = new TreeMap<String, ActiveBatch>();
        dsl.select(MERGE_BATCH.ID, MERGE_BATCH.PARTITION_KEY, MERGE_BATCH.STATUS, MERGE_BATCH.CREATED_AT).from(MERGE_BATCH)
                .where(MERGE_BATCH.STATUS.in(BatchRows.code(BatchStatus.RUNNING), BatchRows.code(BatchStatus.BLOCKED)))
                .forEach(r -> active.put(r.get(MERGE_BATCH.PARTITION_KEY), new ActiveBatch(r.get(MERGE_BATCH.ID),
                        BatchStatus.fromCode(r.get(MERGE_BATCH.STATUS)).orElseThrow(), instant(r.get(MERGE_BATCH.CREATED_AT)))));
        var partitions = new TreeMap<String, Slot>();
        waiting.forEach((p, n) -> partitions.put(p, new Slot(p, n, Optional.ofNullable(active.get(p)))));
        active.forEach((p, b) -> partitions.putIfAbsent(p, new Slot(p, 0, Optional.of(b))));
        return new ArrayList<>(partitions.values());
    }
}
