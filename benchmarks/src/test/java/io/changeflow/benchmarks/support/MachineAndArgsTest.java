package io.changeflow.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MachineAndArgsTest {

    @Test
    void readsCpuModelAndMemory() {
        assertThat(Machine.cpuModel(List.of("processor\t: 0", "model name\t: AMD EPYC 7B13"))).contains("AMD EPYC 7B13");
        assertThat(Machine.memTotal(List.of("MemTotal:       24684144 kB"))).contains("23.5 GiB");
        assertThat(Machine.describe()).contains("nproc=", "JDK=");
    }

    @Test
    void parsesOptions() {
        var args = new Args(new String[] {"--sizes=1000, 10000", "--duration=30", "--url=http://x:1"});
        assertThat(args.integers("sizes", "1")).containsExactly(1000, 10000);
        assertThat(args.seconds("duration", 5)).isEqualTo(Duration.ofSeconds(30));
        assertThat(args.integer("rounds", 2)).isEqualTo(2);
        assertThat(args.require("url")).isEqualTo("http://x:1");
        assertThatThrownBy(() -> args.require("db")).hasMessageContaining("--db");
        assertThatThrownBy(() -> new Args(new String[] {"sizes"})).isInstanceOf(IllegalArgumentException.class);
    }
}
