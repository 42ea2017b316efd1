package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.domain.operation.MergeRequestRef;
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
    static final Persistence persistence = Persistence.onFreshSchema(4);
    private static String partition;

    @BeforeAll
    static void seed() {
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
        // a merge order for each reported merge request, in number order
        for (int from = 1; from <= 2400; from += 1000) {
            var insert = dsl.insertInto(MERGE_ORDER, MERGE_ORDER.PROJECT, MERGE_ORDER.MR_IID);
            for (int i = from; i < Math.min(from + 1000, 2401); i++) {
                insert = insert.values("group/project-" + (i % 40), (long) i);
            }
            insert.execute();
        }
        for (int i = 0; i < 2000; i++) {
            persistence.idempotencyRecords().checkOrInsert("k" + i, "f", Duration.ofHours(i % 2 == 0 ? 1 : 48), Duration.ofSeconds(30));
        }
        for (var table : List.of("operation", "binding", "merge_batch", "merge_batch_request", "deploy_callback",
                "merge_order", "idempotency_record", "operation_history", "binding_history")) {
            dsl.execute("ANALYZE TABLE " + table);
        }
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
        var operations = persistence.operations();
        var first = operations.scan(Set.of(BindingStatus.MERGED, BindingStatus.MERGING), Duration.ZERO, 5);
        assertThat(first.next()).isPresent();
        for (var statement : List.of(
                find(capture(() -> operations.scan(Set.of(BindingStatus.MERGED), Duration.ZERO, 5)),
                        "from `binding`"),
                find(capture(() -> operations.scan(Set.of(BindingStatus.MERGED), Duration.ZERO, first.next().orElseThrow(), 5)),
                        "from `binding`"))) {
            assertThat(plan(statement)).anySatisfy(row -> {
                assertThat(row.get("table")).isEqualTo("binding");
                assertThat(row.get("key")).isEqualTo("idx_binding_status_updated");
                assertThat(row.get("extra")).as("keyset order is the index order").doesNotContainIgnoringCase("filesort");
            }).allSatisfy(row -> assertThat(row.get("extra")).doesNotContainIgnoringCase("temporary"));
        }
        var stuck = find(capture(() -> persistence.operations().stuck(Set.of(BindingStatus.MERGED), Duration.ZERO, 50)),
                "from `operation`");
        assertThat(plan(stuck)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("binding");
            assertThat(row.get("key")).isEqualTo("idx_binding_status_updated");
        });
    }

    /** Finding S3: the failed-close retry job's read of replaced requests by step is a range of V15's index. */
    @Test
    void theReplacedRequestsAtAStepAreARangeOfTheStepIndex() {
        var read = find(capture(() -> persistence.operations().detachedAt(Set.of(io.changeflow.domain.state.StepStatus.CLOSE_FAILED),
                new io.changeflow.application.port.out.Operations.IdPage(java.util.Optional.empty(), 50))), "from `operation`");
        assertThat(plan(read)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("operation");
            assertThat(row.get("key")).isEqualTo("idx_operation_step_id");
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
    void theMergeOrderWatermarkReadsMergesNewestFirstByIndexAndStops() {
        var inbox = persistence.callbackInbox();
        for (var reports : CallbackInbox.Reports.values()) {
            var sql = find(capture(() -> inbox.latestReportedMergeOrder("group/project-7", 1, reports)), "`merge_order`");
            var rows = plan(sql);
            assertThat(rows).anySatisfy(row -> {
                assertThat(row.get("table")).isEqualTo("merge_order");
                assertThat(row.get("key")).isEqualTo("idx_merge_order_project_seq");
            }).anySatisfy(row -> {
                assertThat(row.get("table")).isEqualTo("deploy_callback");
                assertThat(row.get("key")).isEqualTo("idx_deploy_callback_project_status_iid");
            }).allSatisfy(row -> assertThat(row.get("extra")).doesNotContainIgnoringCase("filesort"));
        }
        assertThat(inbox.latestReportedMergeOrder("group/project-7", 1, CallbackInbox.Reports.ALL))
                .as("merge order 7 + 40k of project-7 were reported; 2367 (canceled) was not").hasValue(1967);
    }

    @Test
    void reportsOfOwnMergeRequestsAndMergeOrdersAreIndexReads() {
        var refs = List.of(new MergeRequestRef("group/project-7", 7, "b", "u"), new MergeRequestRef("group/project-8", 8, "b", "u"));
        var own = find(capture(() -> persistence.callbackInbox().reportedWithoutOperationIds(refs)), "from `deploy_callback`");
        assertThat(plan(own)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("deploy_callback");
            assertThat(row.get("key")).isEqualTo("idx_deploy_callback_project_status_iid");
        });
        var orders = find(capture(() -> persistence.operations().mergeOrders(refs)), "from `merge_order`");
        assertThat(plan(orders)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("merge_order");
            assertThat(row.get("key")).isEqualTo("uk_merge_order_merge_request");
        });
        assertThat(persistence.operations().mergeOrders(refs)).containsOnlyKeys(refs);
        assertThat(persistence.callbackInbox().reportedWithoutOperationIds(refs)).containsExactlyInAnyOrderElementsOf(refs);
    }

    @Test
    void theExpiryPurgeDeletesInIndexOrder() {
        var sql = find(capture(() -> persistence.idempotencyRecords().purgeExpired(10)), "delete from `idempotency_record`");
        assertThat(sql.toLowerCase(Locale.ROOT)).contains("order by").contains("limit 10");
        assertThat(plan(sql)).anySatisfy(row -> assertThat(row.get("key")).isEqualTo("idx_idempotency_record_expires"));
        assertThat(persistence.dsl().fetchCount(IDEMPOTENCY_RECORD)).as("nothing expired yet").isEqualTo(2000);
    }

    @Test
    void theDeployDeadlineReadsAKeysetRangeOfTheStatusIndexWithoutSorting() {
        var after = new io.changeflow.application.port.out.Operations.PageCursor(java.time.Instant.parse("2020-01-01T00:00:00Z"), 7);
        var page = find(capture(() -> persistence.operations().mergedLongerThan(Duration.ZERO, after, 100)), "from `binding`");
        assertThat(plan(page)).anySatisfy(row -> {
            assertThat(row.get("table")).isEqualTo("binding");
            assertThat(row.get("key")).isEqualTo("idx_binding_status_updated");
            assertThat(row.get("extra")).doesNotContainIgnoringCase("filesort");
        });
    }

    @Test
    void theOverviewCountsTheLastHoursByTheHistoryIndex() {
        var statements = capture(() -> persistence.activity().read(java.time.Instant.now().minus(Duration.ofHours(23)),
                java.time.Instant.now().minus(Duration.ofHours(1))));
        assertThat(statements).hasSize(6);
        var hours = find(statements, "UNIX_TIMESTAMP");
        assertThat(plan(hours)).singleElement().satisfies(row -> {
            assertThat(row.get("key")).isEqualTo("idx_binding_history_status_created");
            assertThat(row.get("type")).isEqualTo("range");
        });
        statements.forEach(QueryPlanTest::plan);
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
