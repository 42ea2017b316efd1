# Shared helpers of the benchmark scripts (sourced, not run). Everything runs from the repository root.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO"
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
APP_JAR="$REPO/bootstrap/target/changeflow.jar"
BENCH_JAR="$REPO/benchmarks/target/benchmarks.jar"
SWITCH_JAR="$REPO/benchmarks/target/interceptor-switch.jar"
RESULTS="$REPO/benchmarks/target/results"
APP_PIDS=()
# The machine may be shared: a measurement first waits (at most QUIET_WAIT seconds) until other processes use
# under 0.3 cores, and one disturbed meanwhile is taken again, ATTEMPTS times at most. Foreign use is printed
# beside every figure either way. BENCH_OPTS carries both to the Java benchmarks.
QUIET_WAIT=${QUIET_WAIT:-60}
ATTEMPTS=${ATTEMPTS:-3}
BENCH_OPTS="-Dbench.quietWait=$QUIET_WAIT -Dbench.attempts=$ATTEMPTS"

# Builds the product jar and the benchmarks when either is missing (BUILD=1 forces it).
ensure_built() {
  if [ "${BUILD:-0}" = 1 ] || [ ! -f "$APP_JAR" ] || [ ! -f "$BENCH_JAR" ] || [ ! -f "$SWITCH_JAR" ]; then
    ./mvnw -q -B -pl bootstrap,benchmarks -am package -DskipTests
  fi
}

machine() {
  echo "machine: nproc=$(nproc), RAM=$(free -g | awk '/Mem:/{print $2}') GiB, CPU=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), JDK=$("$JAVA" -version 2>&1 | head -1), date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uptime: $(uptime)"
}

# java_benchmark NAME CLASS [ARGS...]: builds when needed, prints the machine, then runs CLASS of the benchmarks
#   jar with ARGS from benchmarks/ (an embedded MariaDB lives under benchmarks/target/embedded-mariadb), its
#   output also in benchmarks/target/results/NAME.txt
java_benchmark() {
  local name=$1 class=$2
  shift 2
  ensure_built
  machine
  mkdir -p "$RESULTS"
  cd "$REPO/benchmarks"
  "$JAVA" $BENCH_OPTS -cp "$BENCH_JAR" -Dtestdb.docker=false "$class" "$@" | tee "$RESULTS/$name.txt"
  echo "uptime: $(uptime)"
}

# wrk_benchmark NAME: the start of a benchmark measured with wrk: builds when needed, sends everything the script
#   prints from here on also to benchmarks/target/results/NAME.txt, installs wrk when missing (Debian), prints the
#   machine and wrk's version
wrk_benchmark() {
  ensure_built
  mkdir -p "$RESULTS"
  exec > >(tee "$RESULTS/$1.txt") 2>&1
  command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }; }
  machine
  echo "wrk: $(wrk --version 2>&1 | head -1)"
}

free_port() {
  "$JAVA" -cp "$BENCH_JAR" io.changeflow.benchmarks.support.FreePort
}

# start_app NAME DIR PORT [extra Spring arguments...]
#   Starts bootstrap/target/changeflow.jar (sandbox profile, embedded MariaDB under DIR/data) in DIR through
#   Spring Boot's PropertiesLauncher with the interceptor switch on loader.path (inactive unless
#   --benchmark.interceptors=off). The dynamic configuration DIR/config/dynamic.properties must exist.
start_app() {
  local name=$1 dir=$2 port=$3
  shift 3
  mkdir -p "$dir"
  ( cd "$dir" && exec "$JAVA" ${APP_JVM_OPTS:-} -Dloader.path="$SWITCH_JAR" -cp "$APP_JAR" \
      org.springframework.boot.loader.launch.PropertiesLauncher \
      --spring.profiles.active=sandbox --server.port="$port" "$@" >"$dir/app.log" 2>&1 ) &
  local pid=$!
  APP_PIDS+=("$pid")
  echo "$pid" >"$dir/app.pid"
  echo "started $name (pid $pid) on port $port in $dir"
}

# wait_ready PORT [seconds]
wait_ready() {
  local port=$1 limit=${2:-240} i
  for ((i = 0; i < limit; i++)); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/actuator/health/readiness" 2>/dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "app on port $port not ready after ${limit}s" >&2
  return 1
}

# Stops the apps this script started (by their pids), gracefully (their shutdown hook stops the embedded
# MariaDB), then hard after 40 s, together with the database process each one started.
stop_apps() {
  local pid i children
  for pid in "${APP_PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for pid in "${APP_PIDS[@]:-}"; do
    [ -z "$pid" ] && continue
    children=$(pgrep -P "$pid" || true)
    for ((i = 0; i < 40; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
      for child in $children; do kill -9 "$child" 2>/dev/null || true; done
    fi
  done
  APP_PIDS=()
}

# --- who used the shared cores (see io.changeflow.benchmarks.support.CpuWatch for the Java side) -------------
# tree_pids PID...: the pids and all their descendants
tree_pids() {
  local p
  for p in "$@"; do
    echo "$p"
    tree_pids $(pgrep -P "$p" || true)
  done
}
# busy_ticks: busy clock ticks (1/100 s) of all CPUs since boot
busy_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
# proc_ticks PID...: utime + stime of these processes and their descendants
proc_ticks() {
  local total=0 p t
  for p in $(tree_pids "$@"); do
    t=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); print f[12] + f[13] }' "/proc/$p/stat" 2>/dev/null || true)
    total=$((total + ${t:-0}))
  done
  echo "$total"
}
# child_ticks VAR: sets VAR to the CPU ticks of this shell's finished children (e.g. wrk), from the times
# builtin, which must run in this very shell (not in a $(...) subshell)
child_ticks() {
  local f
  f=$(mktemp)
  times >"$f"
  printf -v "$1" '%s' "$(awk 'NR == 2 { n = split($0, f, " "); s = 0; for (i = 1; i <= n; i++) { v = f[i]; sub(/s$/, "", v); split(v, mv, "m"); s += mv[1] * 60 + mv[2] } printf "%d\n", s * 100 }' "$f")"
  rm -f "$f"
}
# foreign_cores SECONDS BUSY_DELTA OWN_DELTA: cores used by processes other than ours
foreign_cores() { awk -v s="$1" -v b="$2" -v o="$3" 'BEGIN { f = (b - o) / 100 / s; if (f < 0) f = 0; printf "%.2f\n", f }'; }
# await_quiet PID...: waits (up to QUIET_WAIT seconds) until, over 2 s, other processes use under 0.3 cores
await_quiet() {
  local i b0 o0 b1 o1 f=0
  for ((i = 0; i < (QUIET_WAIT + 1) / 2; i++)); do
    b0=$(busy_ticks); o0=$(proc_ticks "$@")
    sleep 2
    b1=$(busy_ticks); o1=$(proc_ticks "$@")
    f=$(foreign_cores 2 $((b1 - b0)) $((o1 - o0)))
    awk -v f="$f" 'BEGIN { exit !(f < 0.3) }' && return 0
  done
  echo "  (machine not quiet within ${QUIET_WAIT}s, foreign $f cores: measuring anyway)" >&2
}

# --- wrk against the apps this script started (CONNECTIONS, SECONDS_RUN) --------------------------------------
# wrk_line [wrk arguments...] URL -> "rps p50_ms p99_ms non2xx" of one wrk -t1 run of SECONDS_RUN seconds
wrk_line() {
  wrk -t1 -c"${CONNECTIONS:-16}" -d"${SECONDS_RUN:-10}s" --latency "$@" | awk '
    function ms(v) { if (v ~ /us$/) return substr(v, 1, length(v)-2)/1000; if (v ~ /ms$/) return substr(v, 1, length(v)-2)+0; if (v ~ /s$/) return substr(v, 1, length(v)-1)*1000; return v }
    /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) } /^Requests\/sec:/ { rps = $2 } /Non-2xx or 3xx responses:/ { non = $5 }
    END { printf "%s %.3f %.3f %s\n", rps, p50, p99, (non == "" ? 0 : non) }'
}
# round_line ROUND LABEL LINE: prints a line of measured (rps p50_ms p99_ms non2xx foreign_cores) for one round
round_line() {
  local rps p50 p99 non foreign
  read -r rps p50 p99 non foreign <<<"$3"
  printf '  round %d %s %10s req/s  p50 %7.3f ms  p99 %7.3f ms  non-2xx %s  (load %s, foreign cpu %s cores)\n' "$1" "$2" "$rps" "$p50" "$p99" "$non" "$(cut -d' ' -f1-3 /proc/loadavg)" "$foreign"
}
# measured FUNCTION ARGS... -> FUNCTION's line plus " foreign_cores": started when the cores are quiet, repeated
# (up to ATTEMPTS times) when processes other than APP_PIDS and wrk used more than 0.3 cores meanwhile
measured() {
  local attempt line b0 o0 c0 t0 b1 o1 c1 t1 f
  for ((attempt = 1; attempt <= ATTEMPTS; attempt++)); do
    await_quiet "${APP_PIDS[@]}"
    b0=$(busy_ticks); o0=$(proc_ticks "${APP_PIDS[@]}"); child_ticks c0; t0=$(date +%s.%N)
    line=$("$@")
    b1=$(busy_ticks); o1=$(proc_ticks "${APP_PIDS[@]}"); child_ticks c1; t1=$(date +%s.%N)
    f=$(foreign_cores "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" $((b1 - b0)) $((o1 - o0 + c1 - c0)))
    if awk -v f="$f" 'BEGIN { exit !(f < 0.3) }'; then break; fi
    ((attempt < ATTEMPTS)) && echo "  (disturbed: other processes used $f cores; measuring again)" >&2
  done
  echo "$line $f"
}
