package io.changeflow.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StatementCounterTest {

    @Test
    void groupsStatementsByKindAndTable() {
        var recorded = new StatementCounter.Recorded(Map.of(
                "select `operation`.`id` from `operation` left outer join `binding` on 1 = 1 where `operation`.`id` = ?", 3,
                "insert into `merge_batch` (`partition_key`) values (?)", 1,
                "update `binding` set `status` = ? where `id` in (?, ?)", 2,
                "delete r from merge_batch_request as r force index (primary) where r.id in (?)", 1,
                "delete from `idempotency_record` where `idem_key` = ?", 1));
        assertThat(recorded.total()).isEqualTo(8);
        assertThat(recorded.byKind()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "select operation", 3, "insert merge_batch", 1, "update binding", 2, "delete merge_batch_request", 1,
                "delete idempotency_record", 1));
    }

    @Test
    void countsOnlyWhileRecording() {
        var counter = new StatementCounter();
        assertThat(counter.stop().total()).isZero();
        counter.start();
        assertThat(counter.stop().bySql()).isEmpty();
    }
}
