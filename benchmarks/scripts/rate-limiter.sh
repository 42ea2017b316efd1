#!/usr/bin/env bash
# Benchmark 1: the web adapter's SlidingWindowLimiter against Bucket4j local buckets (JMH, same run), then
# the retained heap after 1,000,000 distinct keys and after the window (one JVM per structure).
#
#   benchmarks/scripts/rate-limiter.sh                 # everything (about 12 minutes on 2 cores)
#   JMH_ARGS="-f 1 -wi 2 -i 3" benchmarks/scripts/rate-limiter.sh   # shorter
source "$(dirname "$0")/lib.sh"
ensure_built
machine
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
"$JAVA" -jar "$BENCH_JAR" 'io.changeflow.adapter.web.guard.(RateLimiterBenchmark|FakeClockBaseline)' ${JMH_ARGS:-} \
  -rf json -rff "$out/rate-limiter-jmh.json" | tee "$out/rate-limiter-jmh.txt"
echo "uptime: $(uptime)"
"$JAVA" -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xmx3g -cp "$BENCH_JAR" io.changeflow.adapter.web.guard.LimiterRetainedHeap all "${KEYS:-1000000}" \
  | tee "$out/rate-limiter-heap.txt"
echo "uptime: $(uptime)"
