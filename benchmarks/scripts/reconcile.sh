#!/usr/bin/env bash
# Benchmark 5: reconciliation over 100,000 merged records (time, statements), jOOQ ports on a real database:
# DB_URL, else an embedded MariaDB under benchmarks/target/embedded-mariadb.
#
#   benchmarks/scripts/reconcile.sh [--records=100000 --projects=10]
source "$(dirname "$0")/lib.sh"
java_benchmark reconcile io.changeflow.benchmarks.db.ReconcileBenchmark "$@"
