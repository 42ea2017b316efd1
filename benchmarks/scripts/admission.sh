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
#   VARIANTS='sampling 1.0=;sampling 0=--management.tracing.sampling.probability=0' benchmarks/scripts/admission.sh
#       any apps side by side, ';'-separated "label=extra Spring arguments" (space-separated; none: the sandbox as is),
#       measured like MAIL=on,off (which is short for VARIANTS='mail on=;mail off=--changeflow.notifications.mail.host=')
source "$(dirname "$0")/lib.sh"
ensure_built
machine
work=$(mktemp -d /tmp/changeflow-admission.XXXXXX)
trap 'stop_apps' EXIT
specs=()
if [ -n "${VARIANTS:-}" ]; then
  IFS=';' read -r -a specs <<<"$VARIANTS"
else
  IFS=',' read -r -a mails <<<"${MAIL:-on}"
  for variant in "${mails[@]}"; do
    case "$variant" in
      on) specs+=("mail on=") ;;
      off) specs+=("mail off=--changeflow.notifications.mail.host=") ;;
      *) echo "MAIL takes on, off or on,off (got '$variant')" >&2; exit 2 ;;
    esac
  done
fi
urls=(); dbs=(); labels=(); n=0
for spec in "${specs[@]}"; do
  label=${spec%%=*}; extra=()
  [ "$spec" = "$label" ] || read -r -a extra <<<"${spec#*=}"
  n=$((n + 1))
  dir="$work/app-$n"
  mkdir -p "$dir/config"
  printf 'APPLY_RATE_LIMIT=0\nACCESS_MODE=OPEN\n' >"$dir/config/dynamic.properties"
  PORT=$(free_port); DB_PORT=$(free_port)
  # approvals wait for a person (manual): each admission leaves exactly one background step (SUBMIT_APPROVAL)
  start_app "admission ($label)" "$dir" "$PORT" --changeflow.embedded-db.port="$DB_PORT" \
    --sandbox.approval.mode=manual "${extra[@]}"
  wait_ready "$PORT"
  urls+=("http://127.0.0.1:$PORT"); dbs+=("jdbc:mysql://127.0.0.1:$DB_PORT/"); labels+=("$label")
done
sleep 5
join() { local IFS=','; echo "$*"; }
label_arg=()
if [ "${#specs[@]}" -gt 1 ] || [ "${specs[0]}" != "mail on=" ]; then
  label_arg=(--labels="$(join "${labels[@]}")")
fi
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
"$JAVA" $BENCH_OPTS -cp "$BENCH_JAR" io.changeflow.benchmarks.http.AdmissionLoad --url="$(join "${urls[@]}")" \
  --db="$(join "${dbs[@]}")" "${label_arg[@]}" --concurrency="${CONCURRENCY:-8,32}" --duration="${DURATION:-30}" \
  --warmup="${WARMUP:-10}" --rounds="${ROUNDS:-2}" --own-pids="$(join "${APP_PIDS[@]}")" | tee "$out/admission.txt"
echo "uptime: $(uptime)"
