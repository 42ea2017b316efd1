package io.changeflow.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void percentilesAreNearestRank() {
        var latencies = new Latencies();
        for (var i = 100; i >= 1; i--) {
            latencies.add(i);
        }
        var summary = latencies.summary();
        assertThat(summary.count()).isEqualTo(100);
        assertThat(summary.p50()).isEqualTo(50);
        assertThat(summary.p99()).isEqualTo(99);
        assertThat(summary.max()).isEqualTo(100);
        assertThat(summary.mean()).isEqualTo(50.5);
    }

    @Test
    void mergeKeepsEverySampleAndEmptyIsZero() {
        var a = new Latencies();
        var b = new Latencies();
        for (var i = 0; i < 3000; i++) {
            b.add(7);
        }
        assertThat(a.summary().p99()).isZero();
        assertThat(a.merge(b).summary().count()).isEqualTo(3000);
        assertThat(Latencies.percentile(new long[] {5}, 99)).isEqualTo(5);
    }
}
