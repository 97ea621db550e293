#!/usr/bin/env bash
# GPU checks of the slab hash's 64-bit keys (branch hash64), for the device machine. Run from
# /work/main (the copy of the tree that holds xfer/wt-hash), with $OUT an output folder:
#   bash xfer/wt-hash/device.sh
# 1. builds the standalone primitives of xfer/wt-hash in /tmp/hb (only the targets it runs);
# 2. test_slab_hash, full (both widths), then the 64-bit keys alone is part of the same run;
# 3. compute-sanitizer memcheck and racecheck on --quick (both widths);
# 4. hash_bench, 32- and 64-bit keys, n = 2^26, 5 trials, JSON to $OUT/hash64.json.
# Writes at most 3 files to $OUT: hash64.json, tests.log (the test and sanitizer output), and
# bench.log. Prints a compact summary. Stays within about 300 s (each step has its own limit).
set -u
SRC=/work/main/xfer/wt-hash/primitives
B=/tmp/hb
OUT=${OUT:-/tmp/hb-out}
mkdir -p "$OUT"
LOG=$OUT/tests.log
: >"$LOG"
T0=$(date +%s)
summary=()
step() { summary+=("$(printf '%-34s %s (%ss)' "$1" "$2" "$(($(date +%s) - T0))")"); }

# 1. build
if cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >>"$LOG" 2>&1 &&
  timeout 200 cmake --build "$B" -j16 --target test_slab_hash test_slab_hash_host hash_bench \
    >>"$LOG" 2>&1; then
  step build ok
else
  step build "FAILED (see tests.log)"
  printf '%s\n' "${summary[@]}"
  tail -40 "$LOG"
  exit 1
fi
T=$B/tests

# 2. the tests: the host side, then the GPU suite (32- and 64-bit keys)
run() {  # name, limit in seconds, command...
  local name=$1 limit=$2
  shift 2
  echo "=== $name: $*" >>"$LOG"
  timeout "$limit" "$@" >>"$LOG" 2>&1
  local rc=$?
  step "$name" "rc=$rc"
  return $rc
}
run "test_slab_hash_host" 30 "$T/test_slab_hash_host"
run "test_slab_hash (32 and 64, full)" 100 "$T/test_slab_hash"
grep -E "^(FAIL|PASS)" "$LOG" | tail -20

# 3. the sanitizers on the quick suite (both widths)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  run "compute-sanitizer $tool --quick" 90 "$CS" --tool "$tool" --error-exitcode 9 \
    "$T/test_slab_hash" --quick
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$LOG" | tail -1
done

# 4. the benchmark
left=$((300 - ($(date +%s) - T0)))
if [ "$left" -gt 30 ]; then
  timeout "$left" "$B/bench/hash_bench" --n 26 --util 0.5,0.65,0.75,0.85 --key-bits 32,64 \
    --trials 5 --json "$OUT/hash64.json" >"$OUT/bench.log" 2>&1
  step "hash_bench 2^26 k32,k64" "rc=$? (limit ${left}s)"
  grep -E "^(insert|find_hit |find_miss |erase|mixed_10)" "$OUT/bench.log" | grep -v "_g" | head -40
else
  step "hash_bench" "skipped: ${left}s left"
fi

echo "---- summary"
printf '%s\n' "${summary[@]}"
