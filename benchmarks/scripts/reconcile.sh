#!/usr/bin/env bash
# Benchmark 5: reconciliation over 100,000 merged records (time, statements), jOOQ ports on a real database:
# DB_URL, else an embedded MariaDB under benchmarks/target/embedded-mariadb.
#
#   benchmarks/scripts/reconcile.sh [--records=100000 --projects=10]
source "$(dirname "$0")/lib.sh"
ensure_built
machine
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
cd "$REPO/benchmarks"
"$JAVA" $BENCH_OPTS -cp "$BENCH_JAR" -Dtestdb.docker=false io.changeflow.benchmarks.db.ReconcileBenchmark "$@" | tee "$out/reconcile.txt"
echo "uptime: $(uptime)"
