#!/usr/bin/env bash
# Benchmark 7 (issue 15): the status read every open request page polls, GET /api/requests/{id}, beside the
# database-free catalog GET /api/targets and the "my records" page GET /api/requests?page=0, on one instance of
# the unchanged product app (sandbox profile, embedded MariaDB), measured alternately round by round with wrk.
# The request read is one of alice's, waiting for its approver (approval mode manual), so it has a timeline and a
# scheduled step; alice is its requester (no permission call).
#
#   benchmarks/scripts/status-read.sh            # DURATION=10 WARMUP=8 ROUNDS=3 CONNECTIONS=16
source "$(dirname "$0")/lib.sh"
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-8}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-16}
wrk_benchmark status-read

work=$(mktemp -d /tmp/changeflow-status-read.XXXXXX)
trap 'stop_apps' EXIT
mkdir -p "$work/config"
printf 'APPLY_RATE_LIMIT=1000000\nACCESS_MODE=OPEN\n' >"$work/config/dynamic.properties"
PORT=$(free_port)
start_app status-read "$work" "$PORT" --sandbox.approval.mode=manual
wait_ready "$PORT"
base="http://127.0.0.1:$PORT"
# a few of alice's requests (the page has something to list), the last one is the one read
for i in 1 2 3 4 5; do
  id=$(cat /proc/sys/kernel/random/uuid)
  code=$(curl -s -o "$work/submit.json" -w '%{http_code}' -H 'X-Forwarded-User: alice' -H 'Content-Type: application/json' \
    -d "{\"operationId\":\"$id\",\"targetKey\":\"dashboards-viewer\",\"subjectId\":\"status-$i-${id:0:8}\",\"reason\":\"benchmark status read\"}" \
    "$base/api/requests")
  [ "${code:0:1}" = 2 ] || { echo "submission answered $code: $(cat "$work/submit.json")" >&2; exit 1; }
done
sleep 5
echo "request read: $id, $(curl -s -H 'X-Forwarded-User: alice' "$base/api/requests/$id" | head -c 300)..."

# run_wrk ENDPOINT-ID SECONDS -> "rps p50_ms p99_ms non2xx"
run_wrk() {
  local SECONDS_RUN=$2
  case $1 in
    status) wrk_line -H 'X-Forwarded-User: alice' "$base/api/requests/$id" ;;
    targets) wrk_line -H 'X-Forwarded-User: alice' "$base/api/targets" ;;
    page) wrk_line -H 'X-Forwarded-User: alice' "$base/api/requests?page=0" ;;
  esac
}

declare -A label=([status]="GET /api/requests/{id}" [targets]="GET /api/targets" [page]="GET /api/requests?page=0")
results="$work/results.txt"
for e in status targets page; do run_wrk "$e" "$WARMUP" >/dev/null; done
for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2)); then order="status targets page"; else order="page targets status"; fi
  for e in $order; do
    line=$(measured run_wrk "$e" "$DURATION")
    echo "$e $r $line" >>"$results"
    round_line "$r" "$(printf '%-24s' "${label[$e]}")" "$line"
  done
done

echo "=== summary (median of $ROUNDS rounds of ${DURATION}s, wrk -t1 -c$CONNECTIONS; ratios per round against GET /api/targets of the same round)"
awk '
  function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((n + 1) / 2)] }
  { rps[$1, $2] = $3; n[$1]++; r50[$1, n[$1]] = $4; r99[$1, n[$1]] = $5; all[$1, n[$1]] = $3; rounds[$2] = 1 }
  END {
    split("status targets page", ids, " ")
    for (k = 1; k <= 3; k++) {
      e = ids[k]; delete a; delete b; delete c; delete q; m = 0; list = ""
      for (i = 1; i <= n[e]; i++) { a[i] = all[e, i]; b[i] = r50[e, i]; c[i] = r99[e, i] }
      for (r in rounds) if ((e, r) in rps && ("targets", r) in rps) { q[++m] = rps[e, r] / rps["targets", r]; list = list sprintf(" %.2f", q[m]) }
      printf "%s: %.0f req/s p50 %.3f ms p99 %.3f ms | / GET /api/targets per round:%s; median %.2f\n", e, median(a, n[e]), median(b, n[e]), median(c, n[e]), list, median(q, m)
    }
  }' "$results"
echo "uptime: $(uptime)"
