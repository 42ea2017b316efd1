package io.changeflow.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CpuWatchTest {

    @Test
    void readsBusyTicksOfTheAggregateLine() {
        // user nice system idle iowait irq softirq steal
        assertThat(CpuWatch.parseBusy("cpu  100 5 50 9999 7 1 2 3 0 0")).isEqualTo(100 + 5 + 50 + 1 + 2 + 3);
    }

    @Test
    void readsProcessTicksWhateverTheCommandName() {
        var stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 40 0 100 0 0";
        assertThat(CpuWatch.parseProcessTicks(stat)).isEqualTo(1234 + 567);
    }

    @Test
    void parsesPidListsAndReportsDisturbance() {
        assertThat(CpuWatch.pids("12, 34")).containsExactlyInAnyOrder(12L, 34L);
        assertThat(CpuWatch.pids("")).isEmpty();
        assertThat(new CpuWatch.Usage(1.9, 0.5).disturbed()).isTrue();
        assertThat(new CpuWatch.Usage(1.9, 0.1).disturbed()).isFalse();
        assertThat(CpuWatch.start(Set.of()).stop().own()).isGreaterThanOrEqualTo(0);
    }
}
