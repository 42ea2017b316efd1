#!/usr/bin/env bash
# All six benchmarks in sequence, at sizes that fit in about 15 minutes on 2 cores; each writes its results to
# benchmarks/target/results/<name>.txt (all.txt: this script's whole output). Each script alone takes the
# full sizes (see docs/benchmarks.md). On a shared machine a measurement waits at most QUIET_WAIT seconds for
# quiet cores and is taken once (ATTEMPTS=1): the foreign CPU use is printed beside each figure instead.
#
#   benchmarks/scripts/all.sh
export QUIET_WAIT=${QUIET_WAIT:-6} ATTEMPTS=${ATTEMPTS:-1}
source "$(dirname "$0")/lib.sh"
out="$REPO/benchmarks/target/results"
mkdir -p "$out"
ensure_built
scripts="$REPO/benchmarks/scripts"
{
  machine
  started=$(date +%s)
  step() {
    local name=$1
    shift
    echo
    echo "################ $name ($(date -u +%H:%M:%SZ), $(cut -d' ' -f1-3 /proc/loadavg))"
    "$@" || echo "################ $name FAILED (exit $?)"
  }
  step "1 rate limiter" env JMH_ARGS="${JMH_ARGS:--f 1 -wi 2 -w 1 -i 3 -r 1}" KEYS=1000000 "$scripts/rate-limiter.sh"
  step "2 interceptors" env DURATION=8 WARMUP=8 ROUNDS=2 "$scripts/interceptors.sh"
  step "3 admission" env CONCURRENCY=8,32 DURATION=10 WARMUP=5 ROUNDS=1 "$scripts/admission.sh"
  step "4 claim" "$scripts/claim.sh" --sizes=1000,10000 --repeats=3 --idle=8 --claim-seconds=8
  step "5 reconcile" "$scripts/reconcile.sh" --records=100000
  step "6 workflow" "$scripts/workflow.sh" --requests=60 --sequential=6
  echo
  echo "all six in $(( ($(date +%s) - started) / 60 )) min; results in $out"
  echo "uptime: $(uptime)"
} 2>&1 | tee "$out/all.txt"
