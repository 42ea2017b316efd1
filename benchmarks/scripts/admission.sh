#!/usr/bin/env bash
# Benchmark 3: admission (POST /api/requests, unique operationIds and subjects, rate limit off, access open)
# against the app's embedded MariaDB, and in the same run the database's own ceiling for the same rows
# (plain JDBC, same server, same concurrency, a pool of the app's size).
#
#   benchmarks/scripts/admission.sh          # CONCURRENCY=8,32 DURATION=30 WARMUP=10 ROUNDS=2
source "$(dirname "$0")/lib.sh"
ensure_built
machine
work=$(mktemp -d /tmp/changeflow-admission.XXXXXX)
trap 'stop_apps' EXIT
mkdir -p "$work/config"
printf 'APPLY_RATE_LIMIT=0\nACCESS_MODE=OPEN\n' >"$work/config/dynamic.properties"
PORT=$(free_port); DB_PORT=$(free_port)
# approvals wait for a person (manual): each admission leaves exactly one background step (SUBMIT_APPROVAL)
start_app admission "$work" "$PORT" --changeflow.embedded-db.port="$DB_PORT" --sandbox.approval.mode=manual
wait_ready "$PORT"
sleep 5
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
"$JAVA" $BENCH_OPTS -cp "$BENCH_JAR" io.changeflow.benchmarks.http.AdmissionLoad --url="http://127.0.0.1:$PORT" \
  --db="jdbc:mysql://127.0.0.1:$DB_PORT/" --concurrency="${CONCURRENCY:-8,32}" --duration="${DURATION:-30}" \
  --warmup="${WARMUP:-10}" --rounds="${ROUNDS:-2}" --own-pids="${APP_PIDS[0]}" | tee "$out/admission.txt"
echo "uptime: $(uptime)"
