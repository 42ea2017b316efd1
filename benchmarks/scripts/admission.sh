#!/usr/bin/env bash
# Benchmark 3: admission (POST /api/requests, unique operationIds and subjects, rate limit off, access open)
# against the app's embedded MariaDB, and in the same run the database's own ceiling for the same rows
# (plain JDBC, same server, same concurrency, a pool of the app's size).
#
#   benchmarks/scripts/admission.sh          # CONCURRENCY=8,32 DURATION=30 WARMUP=10 ROUNDS=2 MAIL=on
#   MAIL=on,off benchmarks/scripts/admission.sh
#       two apps side by side, the sandbox's notification mail on (each admission e-mails the approver through the
#       sandbox's SMTP server, in the same JVM) and off (--changeflow.notifications.mail.host= : the message is
#       queued and dropped, no SMTP); each round measures both, each after the other's background work drained
#       (issue 33: the admission's cost told from the e-mail's). MAIL=off alone runs one app without mail.
source "$(dirname "$0")/lib.sh"
ensure_built
machine
work=$(mktemp -d /tmp/changeflow-admission.XXXXXX)
trap 'stop_apps' EXIT
IFS=',' read -r -a variants <<<"${MAIL:-on}"
urls=(); dbs=(); labels=()
for variant in "${variants[@]}"; do
  case "$variant" in
    on) mail=() ;;
    off) mail=(--changeflow.notifications.mail.host=) ;;
    *) echo "MAIL takes on, off or on,off (got '$variant')" >&2; exit 2 ;;
  esac
  dir="$work/mail-$variant"
  mkdir -p "$dir/config"
  printf 'APPLY_RATE_LIMIT=0\nACCESS_MODE=OPEN\n' >"$dir/config/dynamic.properties"
  PORT=$(free_port); DB_PORT=$(free_port)
  # approvals wait for a person (manual): each admission leaves exactly one background step (SUBMIT_APPROVAL)
  start_app "admission-mail-$variant" "$dir" "$PORT" --changeflow.embedded-db.port="$DB_PORT" \
    --sandbox.approval.mode=manual "${mail[@]}"
  wait_ready "$PORT"
  urls+=("http://127.0.0.1:$PORT"); dbs+=("jdbc:mysql://127.0.0.1:$DB_PORT/"); labels+=("mail $variant")
done
sleep 5
join() { local IFS=','; echo "$*"; }
label_arg=()
if [ "${#variants[@]}" -gt 1 ] || [ "${variants[0]}" != on ]; then
  label_arg=(--labels="$(join "${labels[@]}")")
fi
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
"$JAVA" $BENCH_OPTS -cp "$BENCH_JAR" io.changeflow.benchmarks.http.AdmissionLoad --url="$(join "${urls[@]}")" \
  --db="$(join "${dbs[@]}")" "${label_arg[@]}" --concurrency="${CONCURRENCY:-8,32}" --duration="${DURATION:-30}" \
  --warmup="${WARMUP:-10}" --rounds="${ROUNDS:-2}" --own-pids="$(join "${APP_PIDS[@]}")" | tee "$out/admission.txt"
echo "uptime: $(uptime)"
