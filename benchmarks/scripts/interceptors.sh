#!/usr/bin/env bash
# Benchmark 2: what the four web interceptors cost. Two instances of the unchanged product app
# (bootstrap/target/changeflow.jar, sandbox profile, each with its own embedded MariaDB), one with the
# interceptors and one without (--benchmark.interceptors=off, the benchmark-only switch in
# benchmarks/target/interceptor-switch.jar), measured alternately with wrk on three database-free endpoints.
#
#   benchmarks/scripts/interceptors.sh            # DURATION=15 WARMUP=10 ROUNDS=3 CONNECTIONS=16
source "$(dirname "$0")/lib.sh"
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-10}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-16}
wrk_benchmark interceptors

work=$(mktemp -d /tmp/changeflow-interceptors.XXXXXX)
trap 'stop_apps' EXIT
for mode in on off; do
  mkdir -p "$work/$mode/config"
  # never rejects here (a limit far above what a run sends in a window), so the limiter does its full work
  printf 'APPLY_RATE_LIMIT=1000000\nACCESS_MODE=OPEN\n' >"$work/$mode/config/dynamic.properties"
done
PORT_ON=$(free_port); PORT_OFF=$(free_port)
start_app interceptors-on "$work/on" "$PORT_ON" --benchmark.interceptors=on
start_app interceptors-off "$work/off" "$PORT_OFF" --benchmark.interceptors=off
wait_ready "$PORT_ON"; wait_ready "$PORT_OFF"
grep -q "interceptors OFF" "$work/off/app.log" || { echo "the switch did not take the interceptors off" >&2; exit 1; }
# proof the switch works: without interceptors no authorization, so /ops/config answers a caller without identity
echo "GET /ops/config without identity: on=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT_ON/ops/config") off=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT_OFF/ops/config")"
sleep 5

# run_wrk PORT ENDPOINT-ID SECONDS -> prints "rps p50_ms p99_ms non2xx"
run_wrk() {
  local port=$1 id=$2 SECONDS_RUN=$3
  case $id in
    targets) wrk_line -H 'X-Forwarded-User: alice' "http://127.0.0.1:$port/api/targets" ;;
    config) wrk_line -H 'X-Forwarded-User: otto' "http://127.0.0.1:$port/ops/config" ;;
    submit) wrk_line -s "$REPO/benchmarks/scripts/wrk-invalid-submit.lua" "http://127.0.0.1:$port/api/requests" ;;
  esac
}

declare -A label=([targets]="GET /api/targets (alice)" [config]="GET /ops/config (otto)" [submit]="POST /api/requests invalid body -> 400 (alice)")
results="$work/results.txt"
for id in targets config submit; do
  echo "=== ${label[$id]}: warm-up ${WARMUP}s each"
  run_wrk "$PORT_ON" "$id" "$WARMUP" >/dev/null
  run_wrk "$PORT_OFF" "$id" "$WARMUP" >/dev/null
  for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then order="on off"; else order="off on"; fi
    for mode in $order; do
      port=$PORT_ON; [ "$mode" = off ] && port=$PORT_OFF
      line=$(measured run_wrk "$port" "$id" "$DURATION")
      echo "$id $mode $r $line" >>"$results"
      round_line "$r" "$(printf 'interceptors %-3s' "$mode")" "$line"
    done
  done
done

echo "=== summary (median of $ROUNDS rounds of ${DURATION}s, wrk -t1 -c$CONNECTIONS; with an even count the lower middle value)"
for id in targets config submit; do
  awk -v id="$id" -v name="${label[$id]}" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((n + 1) / 2)] }
    $1 == id && $2 == "on" { on_r[++n_on] = $4; on_50[n_on] = $5; on_99[n_on] = $6; round_on[$3] = $4 }
    $1 == id && $2 == "off" { off_r[++n_off] = $4; off_50[n_off] = $5; off_99[n_off] = $6; round_off[$3] = $4 }
    END {
      # the ratio of each round (its two runs back to back) is less exposed to drifting load than a ratio of medians
      for (r in round_on) if (r in round_off) { ratio[++n_ratio] = round_on[r] / round_off[r]; list = list sprintf(" %.2f", ratio[n_ratio]) }
      r_on = median(on_r, n_on); r_off = median(off_r, n_off)
      printf "%s: on %.0f req/s p50 %.3f ms p99 %.3f ms | off %.0f req/s p50 %.3f ms p99 %.3f ms | throughput on/off %.3f (per round:%s; median %.3f)\n",
        name, r_on, median(on_50, n_on), median(on_99, n_on), r_off, median(off_50, n_off), median(off_99, n_off), r_on / r_off, list, median(ratio, n_ratio)
    }' "$results"
done
echo "uptime: $(uptime)"
