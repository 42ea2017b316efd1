package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXPLAIN of the statements the adapter really sends (captured by the statement recorder, values
 * inlined), on tables seeded with enough rows that a full scan would lose. Reads only the columns
 * that MySQL 8 and MariaDB both print ({@code table}, {@code key}, {@code Extra}).
 */
class QueryPlanTest {

    @RegisterExtension
    static final io.changeflow.testsupport.TestDatabase db = io.changeflow.testsupport.TestDatabase.freshSchema();

    private static Persistence persistence;
    private static String partition;

    @BeforeAll
    static void seed() {
        persistence = Persistence.on(db, 4);
        var dsl = persistence.dsl();
        var operations = persistence.operations();
        partition = Fixtures.unique("plan");
        for (int i = 0; i < 6; i++) {
            var other = Fixtures.unique("other");
            Fixtures.bulkWaiting(dsl, other, 500);
            var claim = (Claim.Claimed) persistence.batches().claim(other, 500);
            persistence.batches().changeStatus(claim.batch().id(), io.changeflow.domain.state.BatchStatus.RUNNING,
                    io.changeflow.domain.state.BatchStatus.SUCCEEDED, "merged");
        }
        Fixtures.bulkWaiting(dsl, partition, 300);
        for (int i = 0; i < 20; i++) {
            Fixtures.merged(operations, "merged" + i, Fixtures.unique("t"));
        }
        var inbox = persistence.callbackInbox();
        for (int i = 1; i <= 2000; i++) {
            inbox.recordDeploy("d" + i, "group/project-" + (i % 40), i, "success", List.<OperationId>of());
        }
        // reports that do not mean "in effect", above every success of their project: never the watermark
        for (int i = 2001; i <= 2400; i++) {
            inbox.recordDeploy("d" + i, "group/project-" + (i % 40), i, i % 2 == 0 ? "failed" : "canceled",
                    List.<OperationId>of());
        }
        for (int i = 0; i < 2000; i++) {
            persistence.idempotencyRecords().checkOrInsert("k" + i, "f", Duration.ofHours(i % 2 == 0 ? 1 : 48), Duration.ofSeconds(30));
        }
        for (var table : List.of("operation", "binding", "merge_batch", "merge_batch_request", "deploy_callback",
                "idempotency_record", "operation_history", "binding_history")) {
            dsl.execute("ANALYZE TABLE " + table);
        }
    }

    @AfterAll
    static void unwire() {
        persistence.close();
    }

    @Test
    void theClaimReadsTheWaitingRangeByIndexWithoutSortingAndClaimsByPrimaryKey() {
        var statements = capture(() -> persistence.batches().claim(partition, 100));
        var read = find(statements, "from `merge_batch_request` where");
        assertThat(plan(read)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("merge_batch_request");
            assertThat(row.get("key")).isEqualTo("idx_merge_batch_request_waiting");
            assertThat(row.get("extra")).doesNotContainIgnoringCase("filesort");
        });
        var claim = find(statements, "update `merge_batch_request`");
        assertThat(plan(claim)).anySatisfy(row -> assertThat(row.get("key")).isEqualTo("PRIMARY"));
        var members = find(statements, "update `binding`");
        assertThat(plan(members)).anySatisfy(row -> assertThat(row.get("key")).isEqualTo("uk_binding_operation"));
    }

    @Test
    void theLockFreePreCheckUsesTheWaitingIndex() {
        var check = find(capture(() -> persistence.batches().hasWaiting(partition)), "merge_batch_request");
        assertThat(plan(check)).anySatisfy(row -> assertThat(row.get("key")).isEqualTo("idx_merge_batch_request_waiting"));
    }

    @Test
    void reconciliationAndStuckQueriesUseTheStatusAndUpdatedAtIndex() {
        var merged = find(capture(() -> persistence.operations().mergedBetween(Duration.ZERO, Duration.ofHours(1), 100)),
                "from `operation`");
        assertThat(plan(merged)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("binding");
            assertThat(row.get("key")).isEqualTo("idx_binding_status_updated");
        });
        var stuck = find(capture(() -> persistence.operations().stuck(Set.of(BindingStatus.MERGED), Duration.ZERO, 50)),
                "from `operation`");
        assertThat(plan(stuck)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("binding");
            assertThat(row.get("key")).isEqualTo("idx_binding_status_updated");
        });
    }

    @Test
    void theLargestMergeRequestReportedInEffectIsAnIndexRead() {
        var max = find(capture(() -> persistence.callbackInbox().largestDeployedIid("group/project-7")), "max(");
        assertThat(max).contains("`status` = 'success'");
        assertThat(plan(max)).allSatisfy(row -> assertThat(
                row.get("extra").contains("optimized away") || "idx_deploy_callback_project_status_iid".equals(row.get("key")))
                .as("index read: %s", row).isTrue());
        assertThat(persistence.callbackInbox().largestDeployedIid("group/project-7")).as("the canceled 2367 does not count")
                .hasValue(1967);
        assertThat(persistence.dsl().fetchCount(DEPLOY_CALLBACK)).isEqualTo(2400);
    }

    @Test
    void theExpiryPurgeDeletesInIndexOrder() {
        var sql = find(capture(() -> persistence.idempotencyRecords().purgeExpired(10)), "delete from `idempotency_record`");
        assertThat(sql.toLowerCase(Locale.ROOT)).contains("order by").contains("limit 10");
        assertThat(plan(sql)).anySatisfy(row -> assertThat(row.get("key")).isEqualTo("idx_idempotency_record_expires"));
        assertThat(persistence.dsl().fetchCount(IDEMPOTENCY_RECORD)).as("nothing expired yet").isEqualTo(2000);
    }

    private static List<String> capture(Supplier<?> call) {
        var recorder = persistence.statements();
        recorder.start();
        call.get();
        return recorder.stop();
    }

    private static String find(List<String> statements, String fragment) {
        return statements.stream().filter(s -> s.contains(fragment)).findFirst()
                .orElseThrow(() -> new AssertionError("no statement with " + fragment + " in " + statements));
    }

    /** EXPLAIN rows as column name (lower case) -> value, with nulls as "". */
    private static List<Map<String, String>> plan(String sql) {
        var rows = new ArrayList<Map<String, String>>();
        for (Record r : persistence.dsl().fetch("EXPLAIN " + sql)) {
            var row = new java.util.HashMap<String, String>();
            for (var field : r.fields()) {
                var value = r.get(field);
                row.put(field.getName().toLowerCase(Locale.ROOT), value == null ? "" : value.toString());
            }
            rows.add(row);
        }
        System.out.println("EXPLAIN " + sql + "\n  -> " + rows);
        return rows;
    }

}
