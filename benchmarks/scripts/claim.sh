#!/usr/bin/env bash
# Benchmark 4: batch claim of 1,000 and 10,000 waiting requests (time, statements) and admission latency
# while claims run versus idle. Database: DB_URL (e.g. jdbc:mysql://127.0.0.1:3306/ with DB_USER/DB_PASSWORD),
# else an embedded MariaDB under benchmarks/target/embedded-mariadb.
#
#   benchmarks/scripts/claim.sh [--sizes=1000,10000 --repeats=5 --admitters=8 --idle=15 --claim-seconds=15]
source "$(dirname "$0")/lib.sh"
java_benchmark claim io.changeflow.benchmarks.db.ClaimBenchmark "$@"
