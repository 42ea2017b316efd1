#!/usr/bin/env bash
# Benchmark 7 (issue 15): the status read every open request page polls, GET /api/requests/{id}, beside the
# database-free catalog GET /api/targets and the "my records" page GET /api/requests?page=0, on one instance of
# the unchanged product app (sandbox profile, embedded MariaDB), measured alternately round by round with wrk.
# The request read is one of alice's, waiting for its approver (approval mode manual), so it has a timeline and a
# scheduled step; alice is its requester (no permission call).
# Issue 33 adds the conditional reads: the same two reads with If-None-Match naming their current ETag (304, no body),
# and a replay of the request page's polling of one unchanged request for 10 minutes (the SPA's backoff, 1 s doubling
# to 15 s: 44 looks), sent back to back, once as the SPA did before (no If-None-Match) and once as it does now:
# requests, answers and bytes (headers and bodies) of each. The same replay for the console's overview
# (GET /ops/overview as the operator otto, 40 looks: its 15 s polling for 10 minutes).
#
#   benchmarks/scripts/status-read.sh            # DURATION=10 WARMUP=8 ROUNDS=3 CONNECTIONS=16 (APP_ARGS=...)
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
# APP_ARGS: more settings of the app, e.g. APP_ARGS=--management.tracing.sampling.probability=0
# shellcheck disable=SC2086
start_app status-read "$work" "$PORT" --sandbox.approval.mode=manual ${APP_ARGS:-}
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
etag_of() { curl -s -D - -o /dev/null -H 'X-Forwarded-User: alice' "$1" | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r'; }
status_etag=$(etag_of "$base/api/requests/$id")
page_etag=$(etag_of "$base/api/requests?page=0")
echo "ETags: request $status_etag, page $page_etag"
[ -n "$status_etag" ] && [ -n "$page_etag" ] || { echo "no ETag on the reads" >&2; exit 1; }

# run_wrk ENDPOINT-ID SECONDS -> "rps p50_ms p99_ms non2xx"
run_wrk() {
  local SECONDS_RUN=$2
  case $1 in
    status) wrk_line -H 'X-Forwarded-User: alice' "$base/api/requests/$id" ;;
    targets) wrk_line -H 'X-Forwarded-User: alice' "$base/api/targets" ;;
    page) wrk_line -H 'X-Forwarded-User: alice' "$base/api/requests?page=0" ;;
    status304) wrk_line -H 'X-Forwarded-User: alice' -H "If-None-Match: $status_etag" "$base/api/requests/$id" ;;
    page304) wrk_line -H 'X-Forwarded-User: alice' -H "If-None-Match: $page_etag" "$base/api/requests?page=0" ;;
  esac
}

declare -A label=([status]="GET /api/requests/{id}" [targets]="GET /api/targets" [page]="GET /api/requests?page=0"
  [status304]="GET /api/requests/{id} 304" [page304]="GET /api/requests?page=0 304")
results="$work/results.txt"
for e in status targets page status304 page304; do run_wrk "$e" "$WARMUP" >/dev/null; done
for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2)); then order="status status304 targets page page304"; else order="page304 page targets status304 status"; fi
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
    split("status status304 targets page page304", ids, " ")
    for (k = 1; k <= 5; k++) {
      e = ids[k]; delete a; delete b; delete c; delete q; m = 0; list = ""
      for (i = 1; i <= n[e]; i++) { a[i] = all[e, i]; b[i] = r50[e, i]; c[i] = r99[e, i] }
      for (r in rounds) if ((e, r) in rps && ("targets", r) in rps) { q[++m] = rps[e, r] / rps["targets", r]; list = list sprintf(" %.2f", q[m]) }
      printf "%s: %.0f req/s p50 %.3f ms p99 %.3f ms | / GET /api/targets per round:%s; median %.2f\n", e, median(a, n[e]), median(b, n[e]), median(c, n[e]), list, median(q, m)
    }
  }' "$results"

# The request page's polling of one unchanged request for 10 minutes, replayed back to back (no real wait): the
# looks of the SPA's backoff (polling.ts: 1 s after an answer, doubled while nothing changed, at most 15 s).
looks=1; at=0; delay=1000
while ((at + delay <= 600000)); do at=$((at + delay)); looks=$((looks + 1)); delay=$((delay * 2 > 15000 ? 15000 : delay * 2)); done
replay() { # replay conditional|plain [URL USER LOOKS] -> "requests n200 n304 body_bytes header_bytes"
  local etag="" n200=0 n304=0 bodies=0 heads=0 i line code size headers tag
  local url=${2:-$base/api/requests/$id} user=${3:-alice} n=${4:-$looks}
  for ((i = 0; i < n; i++)); do
    local args=(-s -o /dev/null -D "$work/headers.txt" -w '%{http_code} %{size_download} %{size_header}' -H "X-Forwarded-User: $user")
    [ "$1" = conditional ] && [ -n "$etag" ] && args+=(-H "If-None-Match: $etag")
    line=$(curl "${args[@]}" "$url")
    read -r code size headers <<<"$line"
    bodies=$((bodies + size)); heads=$((heads + headers))
    case $code in 200) n200=$((n200 + 1)) ;; 304) n304=$((n304 + 1)) ;; esac
    tag=$(awk 'tolower($1) == "etag:" { print $2 }' "$work/headers.txt" | tr -d '\r')
    [ -n "$tag" ] && etag=$tag
  done
  echo "$n $n200 $n304 $bodies $heads"
}
read -r plain_n plain_200 plain_304 plain_bodies plain_heads <<<"$(replay plain)"
read -r cond_n cond_200 cond_304 cond_bodies cond_heads <<<"$(replay conditional)"
echo "=== SPA polling of one unchanged request page for 10 minutes (replayed: $looks looks)"
echo "before (no If-None-Match): $plain_n requests, $plain_200 x 200, $plain_304 x 304, bodies $plain_bodies bytes, headers $plain_heads bytes (HTTP/1.1)"
echo "now (If-None-Match):       $cond_n requests, $cond_200 x 200, $cond_304 x 304, bodies $cond_bodies bytes, headers $cond_heads bytes (HTTP/1.1)"
awk -v pb="$plain_bodies" -v ph="$plain_heads" -v cb="$cond_bodies" -v ch="$cond_heads" \
  'BEGIN { printf "body bytes: %.1fx fewer; bodies and HTTP/1.1 headers: %.1fx fewer\n", pb / cb, (pb + ph) / (cb + ch) }'
read -r oplain_n oplain_200 oplain_304 oplain_bodies oplain_heads <<<"$(replay plain "$base/ops/overview" otto 40)"
read -r ocond_n ocond_200 ocond_304 ocond_bodies ocond_heads <<<"$(replay conditional "$base/ops/overview" otto 40)"
echo "=== the console's overview polled for 10 minutes (replayed: 40 looks, 15 s apart; nothing changes meanwhile unless the service works)"
echo "before (no If-None-Match): $oplain_n requests, $oplain_200 x 200, $oplain_304 x 304, bodies $oplain_bodies bytes, headers $oplain_heads bytes (HTTP/1.1)"
echo "now (If-None-Match):       $ocond_n requests, $ocond_200 x 200, $ocond_304 x 304, bodies $ocond_bodies bytes, headers $ocond_heads bytes (HTTP/1.1)"
awk -v pb="$oplain_bodies" -v ph="$oplain_heads" -v cb="$ocond_bodies" -v ch="$ocond_heads" \
  'BEGIN { if (cb > 0) printf "overview body bytes: %.1fx fewer; bodies and HTTP/1.1 headers: %.1fx fewer\n", pb / cb, (pb + ph) / (cb + ch) }'
echo "uptime: $(uptime)"
