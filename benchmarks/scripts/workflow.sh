#!/usr/bin/env bash
# Benchmark 6: end-to-end workflow throughput through the sandbox simulators with zero injected latency,
# 1 then 2 instances of bootstrap/target/changeflow.jar on one database (the system-tests harness starts them:
# DB_URL, else an embedded MariaDB), and the durable hand-over per step from the operation history of requests
# run one at a time.
#
#   benchmarks/scripts/workflow.sh [--requests=100 --instances=1,2 --sequential=10 --submitters=4]
source "$(dirname "$0")/lib.sh"
ensure_built
machine
out="$REPO/benchmarks/target/results"
mkdir -p "$out" "$REPO/benchmarks/target/workflow"
"$JAVA" $BENCH_OPTS -Dtestdb.docker=false -Dchangeflow.jar="$APP_JAR" \
  -Dsystem.output="$REPO/benchmarks/target/workflow" -Djava.io.tmpdir="$REPO/benchmarks/target/workflow" \
  -cp "$BENCH_JAR" io.changeflow.benchmarks.workflow.WorkflowThroughput "$@" | tee "$out/workflow.txt"
echo "uptime: $(uptime)"
